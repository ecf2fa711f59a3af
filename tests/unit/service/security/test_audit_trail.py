"""Every change leaves a sealed, chained event, recorded with the change (fakes)."""

from __future__ import annotations

from uuid import uuid4

import pytest

from memlane.domain.errors import MemoryNotFound
from memlane.domain.facts.records import FactNotFound, FactPatch
from memlane.domain.graph.edges import EdgeKind
from memlane.domain.model import MemoryPatch, NewMemory, Owner
from memlane.domain.policy import GraphTuning, MemoryPolicy
from memlane.domain.security.audit import (
    CLI,
    IN_PROCESS,
    SYSTEM_IMPORT,
    EventKind,
    SubjectKind,
    key_actor,
)
from memlane.service.security.actors import acting_as, become, current_actor
from memlane.service.tenant_memory import TenantMemory
from tests.contract.builders import at_cosine, axis
from tests.fakes.audit import FakeAudit
from tests.fakes.world import DIMENSION, FakeWorld, new_owner

FIRST = "The user keeps bees on the roof."
SECOND = "Bees live on the roof of the user."


@pytest.fixture
def world() -> FakeWorld:
    return FakeWorld()


@pytest.fixture
def owner() -> Owner:
    return new_owner()


def chain_of(world: FakeWorld, owner: Owner) -> list[EventKind]:
    log = world.audit.log
    assert isinstance(log, FakeAudit)
    return [e.entry.kind for e in log.chains.get(owner, [])]


async def test_a_new_memory_has_a_created_event_with_its_values_sealed(
    world: FakeWorld, owner: Owner
) -> None:
    memory = (await world.service.remember(owner, NewMemory(FIRST, tags=("bees",)))).memory
    (event,) = await world.history.memory_history(owner, memory.id)
    assert (event.kind, event.actor, event.subject_kind) == (
        EventKind.CREATED, IN_PROCESS, SubjectKind.MEMORY)
    assert event.payload is not None
    assert event.payload["new"]["content"] == FIRST
    assert event.payload["new"]["tags"] == ["bees"]
    log = world.audit.log
    assert isinstance(log, FakeAudit)
    sealed = log.chains[owner][0].entry.payload
    assert sealed is not None and FIRST.encode() not in sealed


async def test_a_near_duplicate_records_a_merge_into_the_stored_memory(
    world: FakeWorld, owner: Owner
) -> None:
    world.embedder.vectors = {FIRST: axis(DIMENSION, 0), SECOND: at_cosine(DIMENSION, 0.86)}
    first = await world.service.remember(owner, NewMemory(FIRST))
    second = await world.service.remember(owner, NewMemory(SECOND))
    assert second.merged
    events = await world.history.memory_history(owner, first.memory.id)
    assert [e.kind for e in events] == [EventKind.CREATED, EventKind.MERGED]
    merged = events[1].payload
    assert merged is not None and merged["into"] == str(first.memory.id)
    assert merged["old"]["content"] == FIRST
    assert merged["new"]["content"] == second.memory.content


async def test_an_edit_records_old_and_new_values_and_pinning_its_own_events(
    world: FakeWorld, owner: Owner
) -> None:
    memory = (await world.service.remember(owner, NewMemory(FIRST))).memory
    await world.service.update(owner, memory.id, MemoryPatch(content=SECOND, tags=("roof",)))
    await world.service.update(owner, memory.id, MemoryPatch(pinned=True))
    await world.service.update(owner, memory.id, MemoryPatch(pinned=False))
    await world.service.update(owner, memory.id, MemoryPatch(pinned=False))  # no change
    events = await world.history.memory_history(owner, memory.id)
    assert [e.kind for e in events] == [
        EventKind.CREATED, EventKind.UPDATED, EventKind.PINNED, EventKind.UNPINNED]
    updated = events[1].payload
    assert updated == {"old": {"content": FIRST, "tags": []},
                       "new": {"content": SECOND, "tags": ["roof"]}}
    assert [e.seq for e in events] == [1, 2, 3, 4]


async def test_history_outlives_a_deleted_memory(world: FakeWorld, owner: Owner) -> None:
    memory = (await world.service.remember(owner, NewMemory(FIRST))).memory
    await world.service.delete(owner, memory.id)
    with pytest.raises(MemoryNotFound):
        await world.service.delete(owner, memory.id)  # the failed delete leaves no event
    events = await world.history.memory_history(owner, memory.id)
    assert [e.kind for e in events] == [EventKind.CREATED, EventKind.DELETED]


async def test_another_owners_memory_or_an_unknown_fact_has_no_history(
    world: FakeWorld, owner: Owner
) -> None:
    memory = (await world.service.remember(owner, NewMemory(FIRST))).memory
    with pytest.raises(MemoryNotFound):
        await world.history.memory_history(new_owner(), memory.id)
    with pytest.raises(FactNotFound):
        await world.history.fact_history(owner, uuid4())


async def test_erasing_a_user_leaves_tombstones_an_erasure_event_and_an_intact_chain(
    world: FakeWorld, owner: Owner
) -> None:
    memory = (await world.service.remember(owner, NewMemory(FIRST))).memory
    await world.service.update(owner, memory.id, MemoryPatch(pinned=True))
    with acting_as(CLI):
        assert await world.service.delete_all(owner) == 1
    events = await world.history.memory_history(owner, memory.id)
    assert [(e.kind, e.payload, e.actor) for e in events] == [
        (EventKind.ERASED, None, IN_PROCESS)] * 2
    assert chain_of(world, owner)[-1] == EventKind.ERASURE
    report = await world.history.verify(owner.tenant, owner.user_id)
    assert report.intact and (report.events, report.tombstones) == (3, 2)


async def test_the_actor_is_whoever_the_caller_acts_as(world: FakeWorld, owner: Owner) -> None:
    key = uuid4()
    with acting_as(SYSTEM_IMPORT):
        become(key_actor(key))  # the API names the key once it has authenticated
        memory = (await world.service.remember(owner, NewMemory(FIRST))).memory
        with acting_as(CLI):
            await world.service.delete(owner, memory.id)
    assert current_actor() == IN_PROCESS
    events = await world.history.memory_history(owner, memory.id)
    assert [e.actor for e in events] == [f"key:{key}", CLI]
    with pytest.raises(ValueError), acting_as("someone"):
        pass


async def test_stated_edges_are_in_the_history_of_both_ends(
    world: FakeWorld, owner: Owner
) -> None:
    world.embedder.vectors = {FIRST: axis(DIMENSION, 0), "Honey sells well": axis(DIMENSION, 1)}
    a = (await world.service.remember(owner, NewMemory(FIRST))).memory
    b = (await world.service.remember(owner, NewMemory("Honey sells well"))).memory
    await world.service.connect(owner, a.id, b.id, EdgeKind.CAUSAL)
    await world.service.disconnect(owner, a.id, b.id)
    with pytest.raises(MemoryNotFound):
        await world.service.disconnect(owner, a.id, b.id)
    for end in (a.id, b.id):
        edges = [e for e in await world.history.memory_history(owner, end)
                 if e.subject_kind == SubjectKind.EDGE]
        assert [(e.kind, e.subject_id, e.related_id) for e in edges] == [
            (EventKind.CREATED, a.id, b.id), (EventKind.DELETED, a.id, b.id)]
        assert edges[0].payload == {"kind": "causal", "weight": 1.0}


async def test_a_replacing_statement_records_that_the_old_memory_was_superseded() -> None:
    old, new = "I live in Berlin", "I moved to Lisbon last month"
    world = FakeWorld(policy=MemoryPolicy(graph=GraphTuning()))
    world.embedder.vectors.update({old: axis(DIMENSION, 0), new: at_cosine(DIMENSION, 0.9)})
    owner = new_owner()
    berlin = (await world.service.remember(owner, NewMemory(old))).memory
    lisbon = (await world.service.remember(owner, NewMemory(new))).memory
    events = await world.history.memory_history(owner, berlin.id)
    assert [e.kind for e in events] == [EventKind.CREATED, EventKind.SUPERSEDED]
    assert events[1].payload == {"by": str(lisbon.id), "edge": "supersedes"}
    assert events[1].related_id == lisbon.id
    assert (await world.history.verify()).intact


async def test_facts_leave_created_superseded_updated_scored_and_deleted_events(
    world: FakeWorld, owner: Owner
) -> None:
    await world.service.remember(owner, NewMemory("I live in Berlin"))
    (berlin,) = [f for f in await world.service.facts.current(owner) if f.relation == "lives_in"]
    await world.service.remember(owner, NewMemory("I moved to Lisbon last month"))
    (lisbon,) = [f for f in await world.service.facts.current(owner) if f.relation == "lives_in"]
    await world.service.facts.update(owner, lisbon.id, FactPatch(object="Porto"))
    await world.service.facts.update(owner, lisbon.id, FactPatch(user_fact_score=9))
    await world.service.facts.delete(owner, lisbon.id)
    old = await world.history.fact_history(owner, berlin.id)
    # It ended with its memory (the move replaced it), then the fact read from the move
    # became its successor; a person deleted that fact: it holds again, and says why.
    assert [e.kind for e in old] == [EventKind.CREATED, EventKind.SUPERSEDED,
                                     EventKind.SUPERSEDED, EventKind.REVIVED]
    assert old[3].related_id == lisbon.id
    assert old[0].payload is not None and old[0].payload["new"]["object"] == "Berlin"
    assert old[1].payload is not None and old[1].payload["by"] is None
    assert old[2].payload is not None and old[2].payload["by"] == str(lisbon.id)
    new = await world.history.fact_history(owner, lisbon.id)
    assert [e.kind for e in new] == [EventKind.CREATED, EventKind.UPDATED,
                                     EventKind.SCORE_OVERRIDDEN, EventKind.DELETED]
    assert new[1].payload == {"old": {"object": "Lisbon"}, "new": {"object": "Porto"}}
    assert new[2].payload == {"old": None, "new": 9}
    assert all(e.subject_kind == SubjectKind.FACT for e in old + new)
    assert (await world.history.verify()).intact


async def test_a_host_reads_a_memorys_history_in_process(world: FakeWorld) -> None:
    memory = TenantMemory(world.service, tenant="acme", audit=world.history)
    stored = await memory.remember(user_id="u1", content=FIRST)
    await memory.delete(user_id="u1", memory_id=stored.id)
    events = await memory.history(user_id="u1", memory_id=stored.id)
    assert [(e.kind, e.actor) for e in events] == [
        (EventKind.CREATED, IN_PROCESS), (EventKind.DELETED, IN_PROCESS)]
    with pytest.raises(MemoryNotFound):
        await memory.history(user_id="u2", memory_id=stored.id)
