"""The recall benchmark's per-question metrics: turn recall, Hit@k, session recall and MRR."""

from __future__ import annotations

from bench.memory_sets import Question
from bench.recall_metrics import (
    Retrieved,
    distinct_sessions,
    hit_at,
    question_metrics,
    recall,
    recall_all,
    recall_any,
    reciprocal_rank,
)


def memories(*turns: str) -> tuple[frozenset[str], ...]:
    return tuple(frozenset(t.split("+")) for t in turns)


def question(evidence: set[str], sessions: set[int]) -> Question:
    return Question("q", "?", 1, "multi-hop", frozenset(evidence), frozenset(sessions))


def test_recall_is_the_share_of_evidence_turns_the_memories_hold() -> None:
    assert recall({"D1:1", "D1:2", "D2:1", "D3:4"}, memories("D1:1", "D3:4", "D9:9")) == 0.5


def test_a_merged_memory_counts_every_turn_it_holds() -> None:
    assert recall({"D1:1", "D1:2"}, memories("D1:1+D1:2")) == 1.0


def test_hit_at_k_looks_only_at_the_first_k_memories() -> None:
    ranking = memories("D1:1", "D1:2", "D2:5")
    assert hit_at({"D2:5"}, ranking, 2) == 0.0
    assert hit_at({"D2:5"}, ranking, 3) == 1.0


def test_sessions_are_taken_in_order_of_first_appearance() -> None:
    ranking = memories("D4:1", "D4:2", "D2:7", "D4:3", "D9:1+D1:1")
    assert distinct_sessions(ranking) == [4, 2, 1, 9]


def test_recall_any_counts_distinct_sessions_not_memories() -> None:
    # Five memories but only two sessions: the answer session is the third distinct one.
    sessions = distinct_sessions(memories("D4:1", "D4:2", "D2:7", "D4:3", "D2:1", "D8:2"))
    assert recall_any({8}, sessions, 2) == 0.0
    assert recall_any({8}, sessions, 3) == 1.0


def test_recall_all_needs_every_answer_session() -> None:
    sessions = [3, 5, 1, 7]
    assert recall_all({3, 7}, sessions, 3) == 0.0
    assert recall_all({3, 7}, sessions, 4) == 1.0
    assert recall_any({3, 7}, sessions, 1) == 1.0


def test_reciprocal_rank_is_one_over_the_place_of_the_first_answer_session() -> None:
    assert reciprocal_rank({5, 7}, [3, 5, 7]) == 0.5
    assert reciprocal_rank({9}, [3, 5, 7]) == 0.0


def test_metrics_without_evidence_or_answer_sessions_are_left_out() -> None:
    got = Retrieved(memories("D1:1"), memories("D1:1"), memories("D1:1"))
    values = question_metrics(question(set(), set()), got)
    assert all(v is None for v in values.values())


def test_question_metrics_score_context_and_ranking_apart() -> None:
    got = Retrieved(
        context5=memories("D2:1", "D2:2"),
        context_k=memories("D2:1", "D2:2", "D1:3"),
        ranking=memories("D2:2", "D1:3", "D1:4"),
    )
    values = question_metrics(question({"D1:3", "D1:4"}, {1}), got)
    assert values["recall@5"] == 0.0
    assert values["recall@k"] == 0.5
    assert values["turn_hit@1"] == 0.0
    assert values["turn_hit@5"] == 1.0
    assert values["session_any@1"] == 0.0
    assert values["session_any@5"] == 1.0
    assert values["session_mrr"] == 0.5
    assert values["context5_session"] == 0.0
