"""Entities at write and at read: names become nodes of their owner, and a question that
names someone reaches the memories that mention them, never another owner's."""

from __future__ import annotations

import asyncio

from hypothesis import HealthCheck, given, settings, strategies as st

from memlane.domain.entities.nodes import name_terms
from memlane.domain.model import NewMemory, Owner
from memlane.domain.policy import GraphTuning, MemoryPolicy
from memlane.service.entities.linking import EntityLinker
from tests.contract.builders import at_cosine, axis
from tests.fakes.world import DIMENSION, FakeWorld, new_owner

RAVI_TAP = "Ravi fixed the leaking kitchen tap on Sunday"
RAVI_JOB = "My colleague Ravi is leaving Siemens in March"
OTHER = "The garden needs watering twice a week"
QUESTION = "What do you know about Ravi?"


def world_with(**graph: object) -> FakeWorld:
    world = FakeWorld(policy=MemoryPolicy(graph=GraphTuning(**graph)))  # type: ignore[arg-type]
    # The question points away from every memory: only its name can bring one.
    world.embedder.vectors.update({
        RAVI_TAP: axis(DIMENSION, 1), RAVI_JOB: axis(DIMENSION, 2), OTHER: axis(DIMENSION, 3),
        QUESTION: axis(DIMENSION, 0),
    })
    return world


def ravi_index(world: FakeWorld, owner: Owner) -> list[str]:
    return world.encryption.blind_terms(owner.tenant, name_terms(["ravi"]))


async def test_a_written_memory_names_its_people_places_and_companies() -> None:
    world, owner = world_with(), new_owner()
    job = await world.service.remember(owner, NewMemory(RAVI_JOB))
    mentions = await world.entities.mentions_of(owner, [job.memory.id])
    linker = EntityLinker(world.entities, world.encryption)
    names = {linker.open_label(owner, m.entity_id, m.label): m.kind.value for m in mentions}
    assert names == {"Ravi": "person", "Siemens": "organisation"}
    # Stored sealed and blinded: neither the label nor the index reads as the name.
    assert all(b"Ravi" not in m.label for m in mentions)
    assert await world.entities.mentioning(owner, ravi_index(world, owner), 5) == [job.memory.id]


async def test_what_do_you_know_about_ravi_goes_through_the_entity() -> None:
    # Spreading activation off: the garden note, said just after, is temporally linked to
    # Ravi's and would fill a free place; this is about the entity path alone.
    world, owner = world_with(expansion_seeds=0), new_owner()
    # "My colleague Ravi" makes Ravi a person; "Ravi fixed ..." alone would be a guess from
    # a capital letter, which then joins him.
    job = await world.service.remember(owner, NewMemory(RAVI_JOB))
    tap = await world.service.remember(owner, NewMemory(RAVI_TAP))
    await world.service.remember(owner, NewMemory(OTHER))
    chosen = await world.service.retrieve_context(owner, QUESTION, 5)
    assert {m.id for m in chosen} == {tap.memory.id, job.memory.id}
    assert {m.role for m in chosen} == {"entity"}


async def test_with_recall_by_entity_off_a_name_is_only_a_word() -> None:
    world, owner = world_with(entity_weight=0.0), new_owner()
    await world.service.remember(owner, NewMemory(RAVI_JOB))
    chosen = await world.service.retrieve_context(owner, QUESTION, 5)
    assert all(m.role == "entry" for m in chosen)


async def test_erasing_a_user_leaves_no_entity_mention_or_edge() -> None:
    world, owner = world_with(semantic_threshold=0.0), new_owner()
    ids = [(await world.service.remember(owner, NewMemory(t))).memory.id
           for t in (RAVI_TAP, RAVI_JOB, OTHER)]
    assert await world.entities.mentions_of(owner, ids)
    await world.service.delete_all(owner)
    assert await world.entities.mentions_of(owner, ids) == []
    assert await world.entities.mentioning(owner, ravi_index(world, owner), 5) == []
    assert await world.graph.edges_of(owner, ids) == []


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    cosines=st.lists(st.floats(0.0, 1.0), min_size=1, max_size=6),
    seeds=st.integers(0, 5),
    named=st.lists(st.sampled_from(["Ravi", "Lisbon", "Priya", "Siemens"]), min_size=1),
)
def test_no_expansion_or_entity_path_crosses_owners(
    cosines: list[float], seeds: int, named: list[str]
) -> None:
    async def run() -> None:
        world = FakeWorld(policy=MemoryPolicy(
            graph=GraphTuning(expansion_seeds=seeds, semantic_threshold=0.0)
        ))
        mine, theirs = Owner("t", "mine"), Owner("t", "theirs")
        ids: dict[Owner, set[object]] = {mine: set(), theirs: set()}
        for owner in (theirs, mine):
            for index, cosine in enumerate(cosines):
                name = named[index % len(named)]
                text = f"{owner.user_id} met {name} about note {index}"
                world.embedder.vectors[text] = at_cosine(DIMENSION, cosine, other=1 + index % 5)
                result = await world.service.remember(owner, NewMemory(text))
                ids[owner].add(result.memory.id)
        question = "What do you know about " + " and ".join(dict.fromkeys(named))
        world.embedder.vectors[question] = axis(DIMENSION, 0)
        chosen = await world.service.retrieve_context(mine, question, 10)
        assert {m.id for m in chosen} <= ids[mine]

    asyncio.run(run())
