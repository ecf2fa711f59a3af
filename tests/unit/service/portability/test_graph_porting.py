"""Export and import carry the graph: edges and entities come back between the memories
the exported ids became."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from memlane.domain.errors import InvalidMemory
from memlane.domain.graph.edges import EdgeKind
from memlane.domain.model import NewMemory, Owner
from memlane.domain.policy import GraphTuning, MemoryPolicy
from memlane.domain.portability.graph import check_graph_record
from tests.contract.builders import at_cosine, axis
from tests.fakes.world import DIMENSION, FakeWorld, new_owner
from tests.unit.service.portability.portable_lines import exported, store_memories

TEXTS = {
    "My colleague Ravi is moving to Munich in June": axis(DIMENSION, 0),
    "Ravi wants a farewell dinner at the Thai place": at_cosine(DIMENSION, 0.6),
    "My sister Priya is learning the cello": axis(DIMENSION, 5),
}


async def imported(world: FakeWorld, owner: Owner, lines: list[dict[str, Any]]) -> tuple[int, int]:
    graph, ids = await store_memories(world, owner, lines)
    return await world.service.import_graph(owner, graph, ids)


def world() -> FakeWorld:
    made = FakeWorld(policy=MemoryPolicy(graph=GraphTuning(semantic_threshold=0.5)))
    made.embedder.vectors.update(TEXTS)
    return made


def shape(edges: list[Any], names: dict[Any, str]) -> set[tuple[str, str, str, float]]:
    return {(names[e.source], names[e.target], e.kind.value, round(e.weight, 6)) for e in edges}


async def test_edges_and_entities_survive_export_and_import_under_new_ids() -> None:
    w, alice, bob = world(), new_owner(), new_owner()
    start = w.clock()
    written = [
        await w.service.remember(alice, NewMemory(t, created_at=start + timedelta(minutes=i)))
        for i, t in enumerate(TEXTS)
    ]
    ids = [r.memory.id for r in written]
    await w.service.connect(alice, ids[2], ids[0], EdgeKind.NARRATIVE, 0.4)
    lines = await exported(w, alice)
    assert {r.get("record") for r in lines} == {None, "edge", "entity", "fact"}
    edges, mentions = await imported(w, bob, lines)
    assert edges >= 3 and mentions >= 4

    before = await w.graph.edges_of(alice, ids)
    copies = [m async for m in w.service.export(bob)]
    after = await w.graph.edges_of(bob, [m.id for m in copies])
    alice_names = {m.id: m.content for m in [r.memory for r in written]}
    bob_names = {m.id: m.content for m in copies}
    assert shape(after, bob_names) == shape(before, alice_names)

    def entities(lines: list[dict[str, Any]], names: dict[str, str]) -> set[Any]:
        return {
            (r["name"], r["kind"], frozenset(names[m["memory"]] for m in r["mentions"]))
            for r in lines if r.get("record") == "entity"
        }

    again = await exported(w, bob)
    assert entities(again, {str(k): v for k, v in bob_names.items()}) == entities(
        lines, {str(k): v for k, v in alice_names.items()}
    )
    assert ("Ravi", "person", frozenset(list(TEXTS)[:2])) in entities(
        lines, {str(k): v for k, v in alice_names.items()}
    )


@pytest.mark.parametrize("record", [
    {"record": "edge", "source": "not-a-uuid", "target": "x", "kind": "semantic",
     "weight": 0.5, "created_at": "2030-01-01T00:00:00+00:00"},
    {"record": "edge", "source": "00000000-0000-0000-0000-000000000001",
     "target": "00000000-0000-0000-0000-000000000002", "kind": "friendship", "weight": 0.5,
     "created_at": "2030-01-01T00:00:00+00:00"},
    {"record": "edge", "source": "00000000-0000-0000-0000-000000000001",
     "target": "00000000-0000-0000-0000-000000000002", "kind": "semantic", "weight": 1.5,
     "created_at": "2030-01-01T00:00:00+00:00"},
    {"record": "entity", "name": "", "kind": "person", "mentions": []},
    {"record": "entity", "name": "Ravi", "kind": "deity", "mentions": []},
    {"record": "gossip"},
])
def test_a_malformed_graph_record_is_refused(record: dict[str, Any]) -> None:
    with pytest.raises(InvalidMemory):
        check_graph_record(record)


async def test_a_malformed_record_stores_nothing_of_the_graph() -> None:
    w, owner = world(), new_owner()
    bad = {"record": "edge", "source": "00000000-0000-0000-0000-000000000001",
           "target": "00000000-0000-0000-0000-000000000002", "kind": "semantic",
           "weight": "heavy", "created_at": "2030-01-01T00:00:00+00:00"}
    with pytest.raises(InvalidMemory):
        await w.service.import_graph(owner, [bad], {})
