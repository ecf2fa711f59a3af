"""The centring sweep scores a conversation's turns by the cosine to the question less a share
of a centre: a generic turn along the shared direction first as embedded, the answer first
once the question is centred."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest
from bench.centring_sweep import conversation_scores
from bench.memory_sets import Conversation, Question, Turn
from bench.recall_ceiling import stored_text

from tests.fakes.embedder import FakeEmbedder
from tests.fakes.world import DIMENSION, pinned_unit

WHEN = datetime(2023, 5, 8, tzinfo=UTC)
HUB = Turn("D1:1", 1, "Ann", "Sounds good, thanks!", WHEN)
ANSWER = Turn("D2:1", 2, "Ann", "The trail up to the lake above Zermatt.", WHEN)
QUESTION = Question("q1", "Where did we walk last summer?", 1, "single-hop",
                    frozenset({"D2:1"}), frozenset({2}))


async def test_the_answer_comes_first_once_the_question_is_centred() -> None:
    # The pinned vectors of the service's centring test: dimension 1 is shared by every text.
    embedder = FakeEmbedder(DIMENSION, {
        stored_text(HUB.text, HUB.speaker, HUB.created_at): pinned_unit({1: 1.0, 5: 0.35, 8: 0.5}),
        stored_text(ANSWER.text, ANSWER.speaker, ANSWER.created_at):
            pinned_unit({1: 0.8, 5: 0.6, 7: 0.5}),
        QUESTION.text: pinned_unit({1: 1.0, 5: 0.5}),
    })
    centre = np.asarray(pinned_unit({1: 1.0}))
    found = await conversation_scores(
        embedder, Conversation("c", (HUB, ANSWER), (QUESTION,)),
        {"none": np.zeros(1), "texts": centre}, [0.5],
    )
    # Both turns are in the top ten either way; the first one's session decides Hit@1.
    assert found[("none", 0.0)] == [(1.0, 0.0)]
    assert found[("texts", 0.5)] == [(1.0, 1.0)]
    assert set(found) == {("none", 0.0), ("texts", 0.5), ("user", 0.5)}
    assert found[("user", 0.5)][0][0] == pytest.approx(1.0)
