"""Consolidation: one new memory in place of several, linked to them and recorded on each."""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID, uuid4

import pytest

from memlane.domain.errors import InvalidMemory, MemoryNotFound
from memlane.domain.graph.edges import EdgeKind
from memlane.domain.memories.consolidation import Consolidation
from memlane.domain.model import MemoryType, NewMemory, Owner
from tests.fakes.world import FakeWorld, new_owner

NOTES = ("Sprint planning happens on Monday", "The retro is on Friday afternoon",
         "Standup is every morning at nine")


async def stored(world: FakeWorld, owner: Owner, tags: tuple[str, ...] = ()) -> list[UUID]:
    ids = []
    for index, text in enumerate(NOTES):
        result = await world.service.remember(owner, NewMemory(
            text, memory_type=MemoryType.FACT if index else MemoryType.CONTEXT,
            importance=0.3 + index / 10, tags=(*tags, f"t{index}")))
        ids.append(result.memory.id)
        world.clock.advance(timedelta(minutes=5))
    return ids


async def test_the_new_memory_joins_the_sources_in_time_order_and_supersedes_them() -> None:
    world, alice = FakeWorld(), new_owner()
    ids = await stored(world, alice, tags=("work",))
    done = await world.service.consolidate(alice, Consolidation(tuple(reversed(ids))))
    new = done.memory
    assert new.content == "\n\n".join(NOTES)
    assert new.memory_type is MemoryType.FACT and new.base_importance == pytest.approx(0.5)
    assert new.tags == ("work", "t0", "t1", "t2")
    assert [s.id for s in done.sources] == ids and not done.sources_deleted
    assert {(e.target, e.kind) for e in done.edges} == {
        (i, k) for i in ids for k in (EdgeKind.NARRATIVE, EdgeKind.SUPERSEDES)}
    # The sources stay, shown as replaced by the new memory.
    around = await world.service.neighbourhood(alice, new.id)
    assert {n.id for n in around.nodes} == {new.id, *ids}
    assert (await world.service.get(alice, ids[0])).content == NOTES[0]

    events = await world.history.memory_history(alice, new.id)
    mine = [(e.kind.value, e.payload) for e in events if e.subject_id == new.id]
    assert mine[0][0] == "created"
    assert mine[1] == ("consolidated", {"from": [str(i) for i in reversed(ids)]})
    source = [e for e in await world.history.memory_history(alice, ids[1])
              if e.subject_id == ids[1]]
    assert [e.kind.value for e in source] == ["created", "consolidated", "superseded"]
    assert source[1].payload == {"into": str(new.id)} and source[1].related_id == new.id


async def test_consolidating_with_delete_sources_deletes_them_in_the_same_transaction() -> None:
    world, alice = FakeWorld(), new_owner()
    ids = await stored(world, alice)
    done = await world.service.consolidate(alice, Consolidation(
        tuple(ids[:2]), content="Planning Monday, retro Friday", memory_type=MemoryType.PREFERENCE,
        delete_sources=True))
    assert done.sources_deleted and done.edges == ()
    assert (done.memory.content, done.memory.memory_type) == (
        "Planning Monday, retro Friday", MemoryType.PREFERENCE)
    for gone in ids[:2]:
        with pytest.raises(MemoryNotFound):
            await world.service.get(alice, gone)
        kinds = [e.kind.value for e in await world.history.memory_history(alice, gone)]
        assert kinds == ["created", "consolidated", "superseded", "deleted"]
    assert (await world.service.stats(alice)).total == 2


async def test_another_owners_source_is_not_found_and_nothing_changes() -> None:
    world, alice, bob = FakeWorld(), new_owner(), new_owner()
    ids = await stored(world, alice)
    theirs = (await world.service.remember(bob, NewMemory("Bob's private note"))).memory.id
    events = len([e async for e in world.audit.log.events(alice.tenant, alice.user_id)])
    for sources in ((ids[0], theirs), (ids[0], uuid4())):
        with pytest.raises(MemoryNotFound):
            await world.service.consolidate(alice, Consolidation(sources, delete_sources=True))
    assert (await world.service.stats(alice)).total == len(ids)
    assert (await world.service.get(bob, theirs)).content == "Bob's private note"
    assert len([e async for e in world.audit.log.events(alice.tenant, alice.user_id)]) == events


@pytest.mark.parametrize("sources", [(), ("one",), ("one", "one")])
async def test_fewer_than_two_distinct_sources_are_refused(sources: tuple[str, ...]) -> None:
    world, alice = FakeWorld(), new_owner()
    ids = await stored(world, alice)
    chosen = tuple(ids[0] for _ in sources)
    with pytest.raises(InvalidMemory, match="at least 2"):
        await world.service.consolidate(alice, Consolidation(chosen))
    assert (await world.service.stats(alice)).total == len(ids)
