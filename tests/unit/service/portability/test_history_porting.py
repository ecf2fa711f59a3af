"""Export carries every memory's and fact's history; import keeps ids and is idempotent by id."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any
from uuid import UUID

import pytest

from memlane.domain.errors import InvalidMemory
from memlane.domain.facts.records import FactPatch, NewFact
from memlane.domain.graph.edges import EdgeKind
from memlane.domain.model import MemoryPatch, NewMemory, Owner
from memlane.domain.portability.graph import record_type
from memlane.service.security.actors import acting_as
from tests.fakes.world import FakeWorld, new_owner


async def export_lines(world: FakeWorld, owner: Owner) -> list[dict[str, Any]]:
    # Through JSON, as the file carries them.
    return [json.loads(json.dumps(r)) async for r in world.service.export_records(owner)]


async def lived_in(world: FakeWorld, owner: Owner) -> None:
    """An owner with a history: writes, an edit, a pin, a stated edge, a fact and its edits."""
    first = await world.service.remember(owner, NewMemory("The project deadline is in March"))
    world.clock.advance(timedelta(hours=1))
    second = await world.service.remember(owner, NewMemory("I live in Berlin", tags=("home",)))
    world.clock.advance(timedelta(hours=1))
    await world.service.update(owner, first.memory.id,
                               MemoryPatch(content="The project deadline moved to April"))
    await world.service.update(owner, second.memory.id, MemoryPatch(pinned=True))
    await world.service.connect(owner, first.memory.id, second.memory.id, EdgeKind.CAUSAL)
    stated = await world.service.facts.state(
        owner, NewFact(relation="works_at", object="Acme", user_fact_score=6.0))
    await world.service.facts.update(owner, stated.id, FactPatch(user_fact_score=9.0))


def memory_records(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in lines if record_type(r) == "memory"]


async def test_an_export_carries_each_memorys_and_facts_history_in_plaintext() -> None:
    world, alice = FakeWorld(), new_owner()
    with acting_as("cli"):
        await lived_in(world, alice)
    lines = await export_lines(world, alice)
    deadline = next(r for r in memory_records(lines) if "April" in r["content"])
    kinds = [(e["subject_kind"], e["kind"]) for e in deadline["history"]]
    assert kinds == [("memory", "created"), ("memory", "updated"), ("edge", "created")]
    updated = deadline["history"][1]
    assert updated["actor"] == "cli"
    assert updated["payload"] == {"old": {"content": "The project deadline is in March"},
                                  "new": {"content": "The project deadline moved to April"}}
    fact = next(r for r in lines if r.get("record") == "fact" and r["object"] == "Acme")
    assert [e["kind"] for e in fact["history"]] == ["created", "score_overridden"]
    assert fact["history"][1]["payload"] == {"old": 6.0, "new": 9.0}


async def test_export_erase_import_export_gives_the_same_file_and_the_chain_verifies() -> None:
    world, alice = FakeWorld(), new_owner()
    await lived_in(world, alice)
    before = await export_lines(world, alice)
    await world.service.delete_all(alice)
    world.clock.advance(timedelta(days=2))
    with acting_as("cli"):
        report = await world.service.import_records(alice, before)
    assert (report.memories.stored, report.memories.skipped) == (2, 0)
    assert report.edges >= 1 and report.facts.stored >= 1
    after = await export_lines(world, alice)

    def comparable(lines: list[dict[str, Any]]) -> list[str]:
        # Current importance is computed at export time; everything else is stored.
        return sorted(json.dumps({k: v for k, v in r.items() if k != "importance"},
                                  sort_keys=True) for r in lines)

    assert comparable(after) == comparable(before)
    report_chain = await world.history.verify(alice.tenant, alice.user_id)
    assert report_chain.intact and report_chain.broken == 0
    # The re-chained events say when and by whom they came in, under which id.
    deadline = next(r for r in memory_records(after) if "April" in r["content"])
    deadline_id = _id(deadline)
    events = await world.history.memory_history(alice, deadline_id)
    live = [e for e in events if e.kind.value != "erased"]
    assert [e.payload["imported"]["by"] for e in live if e.payload] == ["cli"] * 3
    assert [e.actor for e in live] == [e["actor"] for e in deadline["history"]]
    assert [e.at.isoformat() for e in live] == [e["at"] for e in deadline["history"]]
    assert all(e.subject_id == deadline_id for e in live)


def _id(record: dict[str, Any]) -> UUID:
    return UUID(record["id"])


async def test_importing_the_same_export_twice_adds_nothing_and_reports_it_skipped() -> None:
    world, alice, bob = FakeWorld(), new_owner(), new_owner()
    await lived_in(world, alice)
    lines = await export_lines(world, alice)
    first = await world.service.import_records(bob, lines)
    events = len([e async for e in world.audit.log.events(bob.tenant, bob.user_id)])
    second = await world.service.import_records(bob, lines)
    assert (first.memories.stored, first.memories.skipped) == (2, 0)
    assert (second.memories.stored, second.memories.skipped) == (0, 2)
    assert second.facts.stored == 0 and second.facts.skipped == first.facts.stored
    assert len([e async for e in world.audit.log.events(bob.tenant, bob.user_id)]) == events
    assert (await world.service.stats(bob)).total == 2


async def test_another_owners_ids_are_kept_apart_not_shared_or_leaked() -> None:
    # Ids are per owner (the key is tenant, user, id): bob gets alice's ids as his own, and
    # nothing of his touches hers, nor does anything of hers show through his.
    world, alice, bob = FakeWorld(), new_owner(), new_owner()
    await lived_in(world, alice)
    lines = await export_lines(world, alice)
    await world.service.import_records(bob, lines)
    ids = [_id(r) for r in memory_records(lines)]
    assert {m.id async for m in world.service.export(bob)} == set(ids)
    alice_history = await world.history.memory_history(alice, ids[0])
    await world.service.update(bob, ids[0], MemoryPatch(content="bob's own words now"))
    await world.service.delete(bob, ids[1])
    assert (await world.service.get(alice, ids[0])).content == lines[0]["content"]
    assert (await world.service.get(alice, ids[1])).id == ids[1]
    assert await world.history.memory_history(alice, ids[0]) == alice_history
    assert (await world.history.verify(bob.tenant, bob.user_id)).intact


async def test_an_import_that_stopped_part_way_is_rerun_without_doubles() -> None:
    world, alice, bob = FakeWorld(), new_owner(), new_owner()
    await lived_in(world, alice)
    for extra in range(3):
        await world.service.remember(alice, NewMemory(f"Errand number {extra} is the dentist"))
    lines = await export_lines(world, alice)
    memories = memory_records(lines)
    # The first run got as far as the first two memories (a batch committed, then it died).
    await world.service.import_records(bob, memories[:2])
    rerun = await world.service.import_records(bob, lines)
    assert (rerun.memories.stored, rerun.memories.skipped) == (len(memories) - 2, 2)
    again = await export_lines(world, bob)
    assert sorted(json.dumps(r["history"]) for r in memory_records(again)) == sorted(
        json.dumps(r["history"]) for r in memories)


@pytest.mark.parametrize("broken", [
    {"actor": "mallory"}, {"kind": "erased"}, {"at": "2026-01-01T00:00:00"},
    {"subject_kind": "fact"}, {"payload": "text"},
])
async def test_a_malformed_history_is_refused_before_anything_is_stored(
    broken: dict[str, Any],
) -> None:
    world, alice, bob = FakeWorld(), new_owner(), new_owner()
    await lived_in(world, alice)
    lines = await export_lines(world, alice)
    record = memory_records(lines)[-1]
    record["history"] = [{**record["history"][0], **broken}]
    with pytest.raises(InvalidMemory, match="history"):
        await world.service.import_records(bob, lines)
    assert (await world.service.stats(bob)).total == 0


async def test_export_and_import_keep_what_was_superseded_superseded() -> None:
    world, alice, bob = FakeWorld(), new_owner(), new_owner()
    lisbon = await world.service.remember(alice, NewMemory("I live in Lisbon"))
    world.clock.advance(timedelta(hours=1))
    porto = await world.service.remember(alice, NewMemory("I now live in Porto."))
    world.clock.advance(timedelta(hours=1))
    berlin = await world.service.remember(alice, NewMemory("I moved to Berlin."))
    lines = await export_lines(world, alice)
    old = next(r for r in memory_records(lines) if r["id"] == str(lisbon.memory.id))
    assert old["superseded_by"] == str(porto.memory.id) and old["valid_until"]
    report = await world.service.import_records(bob, lines)
    assert report.memories.stored == 3
    for said, by in ((lisbon, porto), (porto, berlin)):
        restored = await world.service.get(bob, said.memory.id)
        exported = await world.service.get(alice, said.memory.id)
        assert (restored.superseded_by, restored.valid_until) == (
            by.memory.id, exported.valid_until)
    assert (await world.service.get(bob, berlin.memory.id)).current
    homes = [f.object for f in await world.service.facts.current(bob) if f.relation == "lives_in"]
    assert homes == ["Berlin"]
    found = await world.service.search(bob, "Where do I live?")
    assert found[0].memory.id == berlin.memory.id
