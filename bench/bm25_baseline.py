"""The pinned BM25 baseline every recall target is measured against (issue 29).

rank_bm25's `BM25Okapi` with its defaults (k1 1.5, b 0.75, epsilon 0.25); one document per
turn, written `speaker: text`; tokens `[a-z0-9]+` of the lower-cased text, no stemming, no stop
words; each question searches its own conversation only. Pinned so that "BM25 + x" means the
same thing on every set and every day: change nothing here to make a target easier.
"""

from __future__ import annotations

import re

import numpy as np
from bench.memory_sets import Conversation, Turn
from bench.recall_metrics import Retrieved
from rank_bm25 import BM25Okapi

_TOKEN = re.compile(r"[a-z0-9]+")
K1, B, EPSILON = 1.5, 0.75, 0.25


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def document(turn: Turn) -> str:
    return f"{turn.speaker}: {turn.text}"


class Bm25Conversation:
    """One conversation's turns indexed; `rank` answers a question best first."""

    def __init__(self, conversation: Conversation) -> None:
        self._ids = [t.turn_id for t in conversation.turns]
        self._index = BM25Okapi(
            [tokens(document(t)) for t in conversation.turns], k1=K1, b=B, epsilon=EPSILON
        )

    def rank(self, question: str) -> list[str]:
        """Turn ids by descending score, ties in conversation order; turns that share no
        token with the question (score 0) are not retrieved."""
        scores = self._index.get_scores(tokens(question))
        order = np.argsort(-scores, kind="stable")
        return [self._ids[i] for i in order if scores[i] > 0]


def bm25_answers(conversation: Conversation, k: int, depth: int) -> dict[str, Retrieved]:
    """Each question's top 5 and top k as its context, its top `depth` as its ranking."""
    index = Bm25Conversation(conversation)
    answers: dict[str, Retrieved] = {}
    for question in conversation.questions:
        ranked = tuple(frozenset([t]) for t in index.rank(question.text)[:depth])
        answers[question.question_id] = Retrieved(ranked[:5], ranked[:k], ranked)
    return answers
