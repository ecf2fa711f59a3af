"""The language stage: a German question finds the English memory that answers it before
a German memory about something else that the model rates higher only for its language,
in search and context; without offsets (MiniLM's lines) or with the stage skipped, the
cosines rank as they are."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from memlane.composition.retrieval import OPTIONAL
from memlane.domain.errors import EmbeddingUnavailable
from memlane.domain.model import NewMemory, Owner, Vector
from memlane.domain.policy import MemoryPolicy
from memlane.domain.retrieval.language import PARALLEL
from memlane.domain.similarity import MULTILINGUAL_E5, scale_of
from memlane.ports.embedding import EmbedKind
from memlane.service.retrieval.candidates import Rankings
from memlane.service.retrieval.language import LanguageBias
from memlane.service.retrieval.pipeline import Pipeline, Retrieval
from memlane.service.retrieval.rankings import FirstRankings
from memlane.service.security.sealing import Sealer
from tests.fakes.embedder import FakeEmbedder
from tests.fakes.world import DIMENSION, FakeWorld, new_owner, pinned_unit

QUESTION = "Wann ist das Teamtreffen?"
ANSWER = "The team meeting is every Monday at 10."
OTHER = "Zahnarzt am Donnerstag um neun."


# Dimension 0 is the language: the parallel sentences differ only there. The German
# memory's raw cosine to the German question beats the answer's by 0.033, less than the
# 0.065 that e5's offsets take from it and give to the answer (0.044 + 0.021).
PINNED = {
    **{english: pinned_unit({0: -0.3, 1: 1.0}) for english, _ in PARALLEL},
    **{german: pinned_unit({0: 0.3, 1: 1.0}) for _, german in PARALLEL},
    QUESTION: pinned_unit({0: 0.3, 5: 1.0, 6: 0.6}),
    ANSWER: pinned_unit({0: -0.3, 5: 1.0, 6: 0.45, 7: 0.3}),
    OTHER: pinned_unit({0: 0.3, 5: 1.0, 6: 0.3, 8: 0.55}),
}


E5_OFFSETS = scale_of(MULTILINGUAL_E5).language_offsets


async def _stored(
    offsets: tuple[tuple[str, str, float], ...] = E5_OFFSETS, skip: tuple[str, ...] = (),
    embedder: FakeEmbedder | None = None,
) -> tuple[FakeWorld, Owner]:
    """A user holding the English answer and the German memory about something else."""
    policy = MemoryPolicy()
    recall = replace(policy.recall, language_offsets=offsets, skip_stages=skip)
    world = FakeWorld(policy=replace(policy, recall=recall),
                      embedder=embedder or FakeEmbedder(DIMENSION, PINNED))
    owner = new_owner()
    await world.service.remember_many(owner, [NewMemory(ANSWER), NewMemory(OTHER)])
    return world, owner


async def _first(offsets: tuple[tuple[str, str, float], ...], skip: tuple[str, ...] = ()
                 ) -> tuple[str, str]:
    world, owner = await _stored(offsets, skip)
    found = await world.service.search(owner, QUESTION, limit=2)
    context = await world.service.retrieve_context(owner, QUESTION, 1)
    return found[0].memory.content, context[0].content


async def test_without_offsets_the_german_memory_about_something_else_comes_first() -> None:
    assert await _first(()) == (OTHER, OTHER)


async def test_with_e5s_offsets_the_english_answer_comes_first_in_search_and_context() -> None:
    assert await _first(E5_OFFSETS) == (ANSWER, ANSWER)


async def test_the_stage_can_be_left_out() -> None:
    assert "language" in OPTIONAL
    assert await _first(E5_OFFSETS, skip=("language",)) == (OTHER, OTHER)


async def test_the_search_reports_the_corrected_cosine() -> None:
    world, owner = await _stored()
    found = {h.memory.content: h.similarity for h in await world.service.search(
        owner, QUESTION, limit=2)}
    raw = {text: sum(a * b for a, b in zip(PINNED[QUESTION], PINNED[text], strict=True))
           for text in (ANSWER, OTHER)}
    e5 = scale_of(MULTILINGUAL_E5)
    assert found[ANSWER] == pytest.approx(raw[ANSWER] - e5.language_offset("de", "en"))
    assert found[OTHER] == pytest.approx(raw[OTHER] - e5.language_offset("de", "de"))


async def test_an_embedder_down_leaves_the_search_to_the_words() -> None:
    embedder = FakeEmbedder(DIMENSION, PINNED)
    world, owner = await _stored(embedder=embedder)
    embedder.available = False
    found = await world.service.search(owner, "team meeting", limit=2)
    assert [h.memory.content for h in found] == [ANSWER]


class _AxisDown(FakeEmbedder):
    """Down for the parallel sentences only, until `failing` is cleared."""

    failing = True

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> list[Vector]:
        if self.failing and PARALLEL[0][0] in texts:
            raise EmbeddingUnavailable("down for the axis")
        return await super().embed(texts, kind)


async def test_an_axis_not_read_leaves_the_cosines_and_is_read_at_a_later_question() -> None:
    embedder = _AxisDown(DIMENSION, PINNED)
    world, owner = await _stored(embedder=embedder)
    first = await world.service.search(owner, QUESTION, limit=2)
    embedder.failing = False
    again = await world.service.search(owner, QUESTION, limit=2)
    assert (first[0].memory.content, again[0].memory.content) == (OTHER, ANSWER)


class _Counting:
    """The world's candidate search, counting each cosine read by the method that made it."""

    def __init__(self, inner: object) -> None:
        self._inner = inner
        self.reads: list[str] = []

    def __getattr__(self, name: str) -> object:
        attribute = getattr(self._inner, name)
        if name not in ("similarities", "similarities_to"):
            return attribute

        async def counted(*args: object) -> object:
            self.reads.append(name)
            return await attribute(*args)  # type: ignore[operator]
        return counted


async def _ranked(world: FakeWorld, owner: Owner, *, shared: bool) -> tuple[Rankings, list[str]]:
    """The first rankings and the language stage over the world's memories; `shared`: the
    first rankings are given the stage (one read), else the stage reads for itself."""
    search = _Counting(world.memories.search)
    sealer = Sealer(world.encryption, world.keywords, world.policy.base_rate)
    language = LanguageBias(search, world.embedder, E5_OFFSETS)  # type: ignore[arg-type]
    rankings = FirstRankings(search, world.embedder, sealer,  # type: ignore[arg-type]
                             language=language if shared else None)
    r = Retrieval(owner, "Wann ist das team meeting?", world.clock(), 2, 50)
    await Pipeline([rankings, language]).run(r)
    return r.rankings, search.reads


async def test_the_first_rankings_read_the_stages_projections_so_the_stage_reads_nothing() -> (
    None
):
    embedder = FakeEmbedder(DIMENSION, PINNED)
    world, owner = await _stored(embedder=embedder)
    embedder.available = False  # stored without a vector: a hit of the words alone
    await world.service.remember_many(owner, [NewMemory("Das Team trifft sich im Park.")])
    embedder.available = True
    alone, alone_reads = await _ranked(world, owner, shared=False)
    shared, shared_reads = await _ranked(world, owner, shared=True)
    dense = {c.id for c in alone.dense}
    assert dense and any(c.id not in dense for c in alone.lexical)
    # Alone: the lexical hits' cosines, then the stage's projections (after the rankings).
    # Shared: the dense hits' projections while the lexical search runs, then the lexical
    # hits the dense ranking did not find, cosines and projections in one read.
    assert (alone_reads, shared_reads) == (
        ["similarities", "similarities"], ["similarities", "similarities_to"])
    assert shared.similarities == alone.similarities
    assert [c.id for c in shared.dense] == [c.id for c in alone.dense]
    assert [c.score for c in shared.dense] == [c.score for c in alone.dense]
