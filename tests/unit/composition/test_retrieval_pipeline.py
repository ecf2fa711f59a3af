"""The declared retrieval pipelines, run from fakes: what they choose, what they leave out."""

from __future__ import annotations

import pytest

from memlane.composition.retrieval import CONTEXT, OPTIONAL, RetrievalParts, retriever
from memlane.domain.errors import ConfigurationError
from memlane.domain.model import NewMemory
from memlane.domain.policy import MemoryPolicy
from memlane.service.retrieval.neighbours import Neighbours
from memlane.service.retrieval.pipeline import Pipeline, Retrieval
from memlane.service.security.sealing import Sealer
from tests.fakes.world import FakeWorld, new_owner

FACTS = [
    "I work as a nurse at the city hospital.",
    "My sister Lena lives in Hamburg.",
    "We watched a film about whales last night.",
    "I am allergic to peanuts.",
]


def parts(world: FakeWorld) -> RetrievalParts:
    sealer = Sealer(world.encryption, world.keywords, world.policy.base_rate)
    return RetrievalParts(world.memories, world.embedder, sealer, world.policy, world.clock)


async def test_the_context_pipeline_from_fakes_puts_the_matching_memory_first_and_records_it() -> (
    None
):
    world, owner = FakeWorld(), new_owner()
    await world.service.remember_many(owner, [NewMemory(text) for text in FACTS])
    chosen = await retriever(parts(world)).retrieve_context(owner, "Where does my sister live?")
    assert chosen[0].content == FACTS[1]
    assert (await world.service.get(owner, chosen[0].id)).access_count == 1


async def test_search_from_the_same_first_stages_never_records_an_access() -> None:
    world, owner = FakeWorld(), new_owner()
    await world.service.remember_many(owner, [NewMemory(text) for text in FACTS])
    found = await retriever(parts(world)).search(
        owner, "peanuts allergy", limit=2, min_similarity=None
    )
    assert found[0].memory.content == FACTS[3]
    assert (await world.service.get(owner, found[0].memory.id)).access_count == 0


def test_an_optional_stage_can_be_left_out_and_a_required_one_cannot() -> None:
    world = FakeWorld()
    kept = retriever(parts(world))
    without = retriever(parts(world), skip={"neighbours"})
    assert any(isinstance(s, Neighbours) for s in kept._context.stages)
    assert not any(isinstance(s, Neighbours) for s in without._context.stages)
    with pytest.raises(ConfigurationError, match="selection cannot be left out"):
        retriever(parts(world), skip={"selection"})
    assert {name for name, _ in CONTEXT} >= OPTIONAL


async def test_a_new_stage_is_one_declaration_in_the_list() -> None:
    """A reranker over the candidates, inserted before selection: one more entry."""

    class DemoteTheBest:
        async def __call__(self, r: Retrieval) -> None:
            max(r.candidates, key=lambda c: c.match).match = 0.0

    world, owner = FakeWorld(policy=MemoryPolicy(rag_threshold=-1.0)), new_owner()
    await world.service.remember_many(owner, [NewMemory(text) for text in FACTS])
    built = parts(world)
    declared = [(name, make) for name, make in CONTEXT]
    at = [name for name, _ in declared].index("selection")
    declared.insert(at, ("rerank", lambda p: DemoteTheBest()))
    stages = [s for _, make in declared if (s := make(built)) is not None]
    plain = retriever(built)._context
    query = "Where does my sister live?"
    first = (await plain.run(_request(world, owner, query))).contexts
    reranked = (await Pipeline(stages).run(_request(world, owner, query))).contexts
    assert first[0].content == FACTS[1] and reranked[0].content != FACTS[1]


def _request(world: FakeWorld, owner: object, query: str) -> Retrieval:
    return Retrieval(owner, query, world.clock(), 1, 50)  # type: ignore[arg-type]
