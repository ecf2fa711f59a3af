"""Superseded stays superseded: the marker a replacing write sets, corrections, and who revives."""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID

from memlane.domain.facts.records import NewFact
from memlane.domain.memories.consolidation import Consolidation
from memlane.domain.model import Memory, MemoryType, NewMemory, Owner
from memlane.domain.policy import MemoryPolicy
from memlane.domain.security.audit import EventKind
from tests.fakes.world import FakeWorld, new_owner


async def said(world: FakeWorld, owner: Owner, text: str, **given: object) -> Memory:
    new = NewMemory(text, **given)  # type: ignore[arg-type]
    memory = (await world.service.remember(owner, new)).memory
    world.clock.advance(timedelta(minutes=1))
    return memory


async def home(world: FakeWorld, owner: Owner) -> list[str]:
    return sorted(f.object for f in await world.service.facts.current(owner)
                  if f.relation == "lives_in")


async def marker(world: FakeWorld, owner: Owner, memory_id: UUID) -> UUID | None:
    return (await world.service.get(owner, memory_id)).superseded_by


async def test_a_statement_that_replaces_a_fact_becomes_a_correction_that_outweighs_it() -> None:
    world, owner = FakeWorld(), new_owner()
    lisbon = await said(world, owner, "I live in Lisbon")
    porto = await said(world, owner, "I now live in Porto.")
    stored = await world.service.get(owner, porto.id)
    assert stored.memory_type is MemoryType.CORRECTION is porto.memory_type  # the answer too
    assert stored.base_importance >= lisbon.base_importance
    old = await world.service.get(owner, lisbon.id)
    assert (old.superseded_by, old.valid_until) == (porto.id, lisbon.created_at
                                                   + timedelta(minutes=1))
    assert await home(world, owner) == ["Porto"]


async def test_a_type_the_caller_chose_is_kept_and_the_old_memory_is_still_replaced() -> None:
    world, owner = FakeWorld(), new_owner()
    lisbon = await said(world, owner, "I live in Lisbon")
    porto = await said(world, owner, "I now live in Porto.", memory_type=MemoryType.CONTEXT)
    assert (await world.service.get(owner, porto.id)).memory_type is MemoryType.CONTEXT
    assert await marker(world, owner, lisbon.id) == porto.id


async def test_a_replacement_only_a_fact_finds_marks_the_memory_and_retypes_it() -> None:
    world, owner = FakeWorld(), new_owner()
    lisbon = await said(world, owner, "I live in Lisbon")
    porto = await said(world, owner, "I live in Porto")  # no cue word: the fact tells
    assert porto.memory_type is MemoryType.CORRECTION
    assert await marker(world, owner, lisbon.id) == porto.id
    kinds = [(e.kind, (e.payload or {}).get("edge"))
             for e in await world.history.memory_history(owner, lisbon.id)]
    assert kinds == [(EventKind.CREATED, None), (EventKind.SUPERSEDED, "fact")]


async def test_a_persons_delete_of_the_correction_brings_the_old_value_back() -> None:
    world, owner = FakeWorld(), new_owner()
    lisbon = await said(world, owner, "I live in Lisbon")
    porto = await said(world, owner, "I now live in Porto.")
    await world.service.delete(owner, porto.id)
    assert await marker(world, owner, lisbon.id) is None
    assert await home(world, owner) == ["Lisbon"]
    events = await world.history.memory_history(owner, lisbon.id)
    assert [e.kind for e in events][-1] is EventKind.REVIVED


async def test_a_system_delete_never_brings_the_old_value_back() -> None:
    world = FakeWorld(policy=MemoryPolicy(min_importance=0.5))
    owner = new_owner()
    wednesday = await said(world, owner, "The book club meets on Wednesdays", pinned=True,
                           memory_type=MemoryType.FACT)
    thursday = await said(world, owner, "The book club meets on Thursdays from now on.",
                          importance=0.2, memory_type=MemoryType.CONTEXT)
    assert await marker(world, owner, wednesday.id) == thursday.id
    world.clock.advance(timedelta(days=90))
    assert await world.service.cleanup(owner) >= 1
    assert await marker(world, owner, wednesday.id) == thursday.id  # gone, still replaced
    listed = await world.service.search(owner, "When does the book club meet?")
    assert [h.memory.superseded_by for h in listed] == [thursday.id]


async def test_a_chain_whose_middle_goes_points_the_first_on_to_the_last() -> None:
    world, owner = FakeWorld(), new_owner()
    lisbon = await said(world, owner, "I live in Lisbon")
    porto = await said(world, owner, "I now live in Porto.")
    berlin = await said(world, owner, "I moved to Berlin.")
    assert world.memories.consolidation is not None
    await world.memories.consolidation.delete_sources(owner, [porto.id])  # a system delete
    assert await marker(world, owner, lisbon.id) == berlin.id
    assert await home(world, owner) == ["Berlin"]


async def test_consolidation_that_deletes_its_sources_keeps_what_they_said_current() -> None:
    world, owner = FakeWorld(), new_owner()
    lisbon = await said(world, owner, "I live in Lisbon")
    porto = await said(world, owner, "I now live in Porto.")
    done = await world.service.consolidate(owner, Consolidation(
        (lisbon.id, porto.id), content="I moved from Lisbon to Porto.", delete_sources=True))
    assert await home(world, owner) == ["Porto"]
    facts = await world.service.facts.current(owner)
    assert {f.source_memory_id for f in facts if f.relation == "lives_in"} == {done.memory.id}


async def test_a_stated_fact_ends_the_memory_and_deleting_it_brings_both_back() -> None:
    world, owner = FakeWorld(), new_owner()
    lisbon = await said(world, owner, "I live in Lisbon")
    stated = await world.service.facts.state(owner, NewFact(relation="lives_in", object="Porto"))
    ended = await world.service.get(owner, lisbon.id)
    assert ended.superseded_by is None and ended.valid_until is not None
    assert not ended.current
    await world.service.facts.delete(owner, stated.id)
    assert (await world.service.get(owner, lisbon.id)).current
    assert await home(world, owner) == ["Lisbon"]


async def test_saying_the_old_value_again_makes_its_memory_current_again() -> None:
    world, owner = FakeWorld(), new_owner()
    lisbon = await said(world, owner, "I live in Lisbon")
    porto = await said(world, owner, "I now live in Porto.")
    again = await said(world, owner, "I live in Lisbon")
    assert again.id == lisbon.id  # merged into the memory that said it first
    assert (await world.service.get(owner, lisbon.id)).current
    assert await marker(world, owner, porto.id) == lisbon.id
    assert await home(world, owner) == ["Lisbon"]
