"""Export and import carry facts: validity, scores and sources come back under new ids."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from uuid import UUID

import pytest

from memlane.domain.errors import InvalidMemory
from memlane.domain.facts.model import Fact
from memlane.domain.facts.records import NewFact
from memlane.domain.model import NewMemory, Owner
from memlane.domain.portability.graph import check_graph_record, record_type
from tests.fakes.world import FakeWorld, new_owner
from tests.unit.service.portability.portable_lines import exported, store_memories


async def imported(world: FakeWorld, owner: Owner, lines: list[dict[str, Any]]) -> int:
    rest, ids = await store_memories(world, owner, lines)
    await world.service.import_graph(owner, rest, ids)
    return await world.service.import_facts(owner, rest, ids)


def portable(fact: Fact, memory_text: dict[UUID | None, str | None]) -> tuple[Any, ...]:
    return (fact.subject, fact.relation, fact.object, fact.fact_type, fact.time_span,
            fact.confidence, fact.user_fact_score, memory_text.get(fact.source_memory_id),
            fact.valid_from, fact.valid_until, fact.superseded_by is not None)


async def facts_of(world: FakeWorld, owner: Owner) -> set[tuple[Any, ...]]:
    texts: dict[UUID | None, str | None] = {
        m.id: m.content async for m in world.service.export(owner)}
    return {portable(f, texts) async for f in world.service.facts.export(owner)}


async def test_facts_survive_export_and_import_with_validity_scores_and_sources() -> None:
    world, alice, bob = FakeWorld(), new_owner(), new_owner()
    await world.service.remember(alice, NewMemory("I live in Berlin"))
    world.clock.advance(timedelta(days=3))
    await world.service.remember(alice, NewMemory("I moved to Lisbon last month"))
    await world.service.facts.state(
        alice, NewFact(relation="works_at", object="Acme", user_fact_score=8.5))
    before = await facts_of(world, alice)
    assert {(f[2], f[10]) for f in before} >= {("Berlin", True), ("Lisbon", False)}
    lines = await exported(world, alice)
    assert sum(record_type(r) == "fact" for r in lines) == len(before)

    world.clock.advance(timedelta(days=30))  # import later: validity is the exported one
    # The facts read from the imported memories are read again on their write; only the
    # stated one is stored from its record, the others take their exported end.
    assert await imported(world, bob, lines) == 1
    assert await facts_of(world, bob) == before
    current = {f.object for f in await world.service.facts.current(bob)}
    assert {"Lisbon", "Acme"} <= current and "Berlin" not in current
    (acme,) = [f.id async for f in world.service.facts.export(bob) if f.object == "Acme"]
    events = await world.history.fact_history(bob, acme)
    assert [e.kind.value for e in events] == ["created"]
    # A second import of the same file stores no fact record twice.
    assert await imported(world, bob, lines) == 0
    assert [f.object async for f in world.service.facts.export(bob)].count("Acme") == 1


async def test_a_malformed_fact_record_is_refused_before_anything_is_stored() -> None:
    world, alice = FakeWorld(), new_owner()
    await world.service.facts.state(alice, NewFact(relation="works_at", object="Acme"))
    (record,) = [r for r in await exported(world, alice) if record_type(r) == "fact"]
    for broken in ({**record, "confidence": 3}, {**record, "valid_from": "soon"},
                   {k: v for k, v in record.items() if k != "object"}):
        with pytest.raises(InvalidMemory):
            check_graph_record(broken)
