"""Per-question retrieval metrics: turn recall@k, Hit@k, session recall_any/recall_all@K and MRR.

A system's answer to a question is `Retrieved`: the memories of the context path (limit 5 and
limit k, in any order) and a ranking (best first). Each memory stands for the turns it holds
(a merged memory holds several). Session-level units follow LongMemEval's retrieval evaluation
and the local-first peers that publish it: the ranking's sessions are taken in order of first
appearance, and @K looks at the first K distinct sessions.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from bench.memory_sets import Question, session_of

Turns = frozenset[str]  # the turn ids one memory holds


@dataclass(frozen=True, slots=True)
class Retrieved:
    """What one system returned for one question."""

    context5: tuple[Turns, ...]  # the context path with limit 5
    context_k: tuple[Turns, ...]  # the context path with limit k
    ranking: tuple[Turns, ...]  # best first


def held(memories: Sequence[Turns]) -> set[str]:
    return set().union(*memories) if memories else set()


def recall(wanted: Collection[str], memories: Sequence[Turns]) -> float:
    """Share of the wanted turns that some memory holds."""
    return len(held(memories) & set(wanted)) / len(wanted)


def hit_at(wanted: Collection[str], ranking: Sequence[Turns], k: int) -> float:
    """1.0 when one of the first k memories holds a wanted turn."""
    return 1.0 if held(ranking[:k]) & set(wanted) else 0.0


def distinct_sessions(ranking: Sequence[Turns]) -> list[int]:
    """The sessions of a ranking in order of first appearance (a memory holding turns of
    several sessions adds them in number order)."""
    seen: dict[int, None] = {}
    for memory in ranking:
        for session in sorted({session_of(t) for t in memory}):
            seen.setdefault(session, None)
    return list(seen)


def recall_any(answer: Collection[int], sessions: Sequence[int], k: int) -> float:
    """1.0 when an answer session is among the first k distinct sessions."""
    return 1.0 if set(sessions[:k]) & set(answer) else 0.0


def recall_all(answer: Collection[int], sessions: Sequence[int], k: int) -> float:
    """1.0 when every answer session is among the first k distinct sessions (LongMemEval's
    official recall_all@k)."""
    return 1.0 if set(answer) <= set(sessions[:k]) else 0.0


def reciprocal_rank(answer: Collection[int], sessions: Sequence[int]) -> float:
    """1 / the place of the first answer session among the distinct sessions, 0 if absent."""
    for place, session in enumerate(sessions, start=1):
        if session in answer:
            return 1.0 / place
    return 0.0


# Every metric a question can have, in the order tables print them; None where it has no
# meaning for the question (no evidence turn, no answer session).
TURN_METRICS = ("recall@5", "recall@k", "turn_hit@1", "turn_hit@5")
SESSION_METRICS = (
    "session_any@1", "session_any@5", "session_any@10", "session_all@5", "session_mrr",
    "context5_session",
)
METRICS = TURN_METRICS + SESSION_METRICS


def question_metrics(question: Question, got: Retrieved) -> dict[str, float | None]:
    values: dict[str, float | None] = dict.fromkeys(METRICS)
    wanted = question.evidence
    if wanted:
        values["recall@5"] = recall(wanted, got.context5)
        values["recall@k"] = recall(wanted, got.context_k)
        values["turn_hit@1"] = hit_at(wanted, got.ranking, 1)
        values["turn_hit@5"] = hit_at(wanted, got.ranking, 5)
    answer = question.answer_sessions
    if answer:
        sessions = distinct_sessions(got.ranking)
        for k in (1, 5, 10):
            values[f"session_any@{k}"] = recall_any(answer, sessions, k)
        values["session_all@5"] = recall_all(answer, sessions, 5)
        values["session_mrr"] = reciprocal_rank(answer, sessions)
        values["context5_session"] = recall_any(answer, distinct_sessions(got.context5), 5)
    return values
