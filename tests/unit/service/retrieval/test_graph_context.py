"""Graph-aware context: the newer statement wins, the past is there when asked, and the
graph never brings another owner's memory."""

from __future__ import annotations

from uuid import UUID

import pytest

from memlane.domain.model import NewMemory, Owner
from memlane.domain.policy import GraphTuning, MemoryPolicy
from memlane.domain.retrieval.context import ContextOptions
from tests.contract.builders import at_cosine, axis
from tests.fakes.world import DIMENSION, FakeWorld

BERLIN, LISBON = "I live in Berlin", "I moved to Lisbon last month"
NOW_Q, PAST_Q = "where is home for me", "where did I live before"


async def moved(**graph: object) -> tuple[FakeWorld, Owner, UUID, UUID]:
    world = FakeWorld(policy=MemoryPolicy(graph=GraphTuning(**graph)))  # type: ignore[arg-type]
    world.embedder.vectors.update({
        BERLIN: axis(DIMENSION, 0), LISBON: at_cosine(DIMENSION, 0.9),
        NOW_Q: at_cosine(DIMENSION, 0.8, other=2), PAST_Q: at_cosine(DIMENSION, 0.8, other=2),
    })
    owner = Owner("t", "ana")
    berlin = await world.service.remember(owner, NewMemory(BERLIN))
    lisbon = await world.service.remember(owner, NewMemory(LISBON))
    return world, owner, berlin.memory.id, lisbon.memory.id


async def test_context_prefers_the_memory_that_replaced_an_older_one() -> None:
    world, owner, berlin, lisbon = await moved()
    chosen = await world.service.retrieve_context(owner, NOW_Q, 5)
    assert [m.id for m in chosen] == [lisbon] and berlin != lisbon


async def test_a_question_about_the_past_brings_the_old_memory_labelled() -> None:
    world, owner, berlin, lisbon = await moved()
    chosen = {m.id: m for m in await world.service.retrieve_context(owner, PAST_Q, 5)}
    assert chosen.keys() == {berlin, lisbon}
    assert chosen[berlin].superseded_by == lisbon and chosen[lisbon].superseded_by is None


async def test_include_superseded_shows_the_old_memory_for_any_question() -> None:
    world, owner, berlin, lisbon = await moved()
    chosen = await world.service.prompt_context(
        owner, NOW_Q, 5, ContextOptions(include_superseded=True)
    )
    assert {m.id for m in chosen.memories} == {berlin, lisbon}


# That no expansion (nor recall by entity) brings another owner's memory is the property
# test of tests/unit/service/entities/test_entities.py.


@pytest.mark.parametrize("seeds", [0, 5])
async def test_roles_say_how_each_memory_was_found(seeds: int) -> None:
    world, owner, _, lisbon = await moved(expansion_seeds=seeds)
    (chosen,) = await world.service.retrieve_context(owner, NOW_Q, 5)
    assert chosen.role == "entry" and chosen.id == lisbon
