"""Centring the question: a memory that lies along the direction every text shares (a short
generic turn) no longer comes before the one that answers; the centre is built once from the
centre texts as documents, and a centre not built leaves the question as embedded."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import pytest

from memlane.domain.errors import EmbeddingUnavailable
from memlane.domain.model import NewMemory, Owner, Vector
from memlane.domain.policy import MemoryPolicy
from memlane.domain.retrieval.centring import CENTRE_TEXTS
from memlane.domain.similarity import MINILM, MULTILINGUAL_E5, scale_of
from memlane.ports.embedding import EmbedKind
from tests.fakes.embedder import FakeEmbedder
from tests.fakes.world import DIMENSION, FakeWorld, new_owner, pinned_unit

QUESTION = "Where did we walk last summer?"
ANSWER = "The trail up to the lake above Zermatt."
HUB = "Sounds good, thanks!"


# Dimension 1 is what every text shares (the centre texts lie on it), dimension 5 the
# question's topic; 7 and 8 keep the two memories apart (cosine 0.77: no merge). The generic
# turn lies closer to the common direction: its raw cosine to the question (0.897) beats the
# answer's (0.880); to the question less half the centre, 0.79 against 0.88.
PINNED = {
    **dict.fromkeys(CENTRE_TEXTS, pinned_unit({1: 1.0})),
    QUESTION: pinned_unit({1: 1.0, 5: 0.5}),
    ANSWER: pinned_unit({1: 0.8, 5: 0.6, 7: 0.5}),
    HUB: pinned_unit({1: 1.0, 5: 0.35, 8: 0.5}),
}


async def _stored(weight: float, embedder: FakeEmbedder | None = None
                  ) -> tuple[FakeWorld, Owner, FakeEmbedder]:
    embedder = embedder or FakeEmbedder(DIMENSION, PINNED)
    policy = MemoryPolicy()
    world = FakeWorld(policy=replace(policy, recall=replace(policy.recall, query_centring=weight)),
                      embedder=embedder)
    owner = new_owner()
    await world.service.remember_many(owner, [NewMemory(ANSWER), NewMemory(HUB)])
    return world, owner, embedder


async def _first(world: FakeWorld, owner: Owner) -> tuple[str, str]:
    found = await world.service.search(owner, QUESTION, limit=2)
    context = await world.service.retrieve_context(owner, QUESTION, 1)
    return found[0].memory.content, context[0].content


async def test_uncentred_the_generic_turn_comes_first() -> None:
    world, owner, _ = await _stored(0.0)
    assert await _first(world, owner) == (HUB, HUB)


async def test_centred_the_answer_comes_first_in_search_and_context() -> None:
    world, owner, _ = await _stored(0.5)
    assert await _first(world, owner) == (ANSWER, ANSWER)


async def test_the_search_reports_the_cosine_to_the_centred_question() -> None:
    world, owner, _ = await _stored(0.5)
    found = {h.memory.content: h.similarity for h in await world.service.search(
        owner, QUESTION, limit=2)}
    question = [q - 0.5 * c for q, c in zip(PINNED[QUESTION], PINNED[CENTRE_TEXTS[0]],
                                             strict=True)]
    norm = math.sqrt(sum(x * x for x in question))
    expected = {text: sum(q * m for q, m in zip(question, PINNED[text], strict=True)) / norm
                for text in (ANSWER, HUB)}
    assert found == pytest.approx(expected)


async def test_the_centre_is_built_once_from_the_centre_texts_as_documents() -> None:
    world, owner, embedder = await _stored(0.5)
    await _first(world, owner)
    await _first(world, owner)
    built = [(texts, kind) for texts, kind in embedder.calls if texts == list(CENTRE_TEXTS)]
    assert built == [(list(CENTRE_TEXTS), "document")]


class _CentreDown(FakeEmbedder):
    """Down for the centre texts only, until `failing` is cleared."""

    failing = True

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> list[Vector]:
        if self.failing and CENTRE_TEXTS[0] in texts:
            raise EmbeddingUnavailable("down for the centre")
        return await super().embed(texts, kind)


async def test_a_centre_not_built_leaves_the_question_and_is_built_at_a_later_question() -> None:
    world, owner, embedder = await _stored(0.5, _CentreDown(DIMENSION, PINNED))
    first = await world.service.search(owner, QUESTION, limit=2)
    embedder.failing = False  # type: ignore[attr-defined]
    again = await world.service.search(owner, QUESTION, limit=2)
    assert (first[0].memory.content, again[0].memory.content) == (HUB, ANSWER)


def test_only_the_multilingual_model_is_centred() -> None:
    assert scale_of(MULTILINGUAL_E5).query_centring == 0.5
    assert scale_of(MINILM).query_centring == 0.0
