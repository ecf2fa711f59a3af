"""GraphPortContract: what every GraphPort (fake or PostgreSQL) does with one owner's edges.

Subclass it and provide the fixtures `ports` (MemoryPorts), `graph` (a GraphPort over the same
storage) and `owner` (fresh per test)."""

from __future__ import annotations

from datetime import timedelta
from uuid import uuid4

import pytest

from memlane.domain.graph.edges import Edge, EdgeKind
from memlane.domain.graph.temporal import Moment
from memlane.domain.model import Owner, StoredMemory
from memlane.ports.graph import GraphPort
from memlane.ports.storage import MemoryPorts
from tests.contract.builders import T0, insert, stored

CAP = 20


def edge(
    source: StoredMemory, target: StoredMemory, kind: EdgeKind = EdgeKind.SEMANTIC,
    weight: float = 0.5,
) -> Edge:
    return Edge(source.id, target.id, kind, weight, T0, T0)


class GraphPortContract:
    async def test_edges_are_read_from_either_end(
        self, ports: MemoryPorts, graph: GraphPort, owner: Owner
    ) -> None:
        a, b, c = stored(owner), stored(owner), stored(owner)
        await insert(ports.store, a, b, c)
        assert await graph.add_edges(owner, [edge(a, b), edge(b, c, EdgeKind.CAUSAL)],
                                     cap_per_node=CAP) == 2
        around_b = await graph.edges_of(owner, [b.id])
        assert {(e.source, e.target, e.kind) for e in around_b} == {
            (a.id, b.id, EdgeKind.SEMANTIC), (b.id, c.id, EdgeKind.CAUSAL),
        }
        only_causal = await graph.edges_of(owner, [b.id], kinds=[EdgeKind.CAUSAL])
        assert [e.target for e in only_causal] == [c.id]
        assert only_causal[0].weight == pytest.approx(0.5)
        assert only_causal[0].created_at == T0 and only_causal[0].activated_at == T0

    async def test_an_edge_reaching_another_owner_is_never_stored(
        self, ports: MemoryPorts, graph: GraphPort, owner: Owner
    ) -> None:
        stranger = Owner(owner.tenant, owner.user_id + "-stranger")
        mine, theirs = stored(owner), stored(stranger)
        await insert(ports.store, mine, theirs)
        gone = Edge(mine.id, uuid4(), EdgeKind.SEMANTIC, 0.9, T0, T0)
        assert await graph.add_edges(owner, [edge(mine, theirs), gone], cap_per_node=CAP) == 0
        assert await graph.edges_of(owner, [mine.id, theirs.id]) == []
        assert await graph.edges_of(stranger, [mine.id, theirs.id]) == []

    async def test_adding_an_edge_again_keeps_the_stronger_weight(
        self, ports: MemoryPorts, graph: GraphPort, owner: Owner
    ) -> None:
        a, b = stored(owner), stored(owner)
        await insert(ports.store, a, b)
        await graph.add_edges(owner, [edge(a, b, weight=0.7)], cap_per_node=CAP)
        await graph.add_edges(owner, [edge(a, b, weight=0.4)], cap_per_node=CAP)
        (kept,) = await graph.edges_of(owner, [a.id])
        assert kept.weight == pytest.approx(0.7)

    async def test_semantic_edges_beyond_the_cap_lose_the_weakest(
        self, ports: MemoryPorts, graph: GraphPort, owner: Owner
    ) -> None:
        hub, *others = [stored(owner) for _ in range(5)]
        await insert(ports.store, hub, *others)
        weights = [0.9, 0.4, 0.8, 0.5]
        await graph.add_edges(
            owner, [edge(o, hub, weight=w) for o, w in zip(others, weights, strict=True)],
            cap_per_node=2,
        )
        left = await graph.edges_of(owner, [hub.id])
        assert sorted(e.weight for e in left) == pytest.approx([0.8, 0.9])
        # Other kinds do not count against the semantic cap.
        await graph.add_edges(owner, [edge(others[1], hub, EdgeKind.CAUSAL)], cap_per_node=2)
        assert len(await graph.edges_of(owner, [hub.id])) == 3

    async def test_deleting_a_memory_or_erasing_the_user_leaves_no_edge(
        self, ports: MemoryPorts, graph: GraphPort, owner: Owner
    ) -> None:
        a, b, c = stored(owner), stored(owner), stored(owner)
        await insert(ports.store, a, b, c)
        await graph.add_edges(owner, [edge(a, b), edge(b, c), edge(c, a)], cap_per_node=CAP)
        assert await ports.store.delete(owner, b.id)
        assert {(e.source, e.target) for e in await graph.edges_of(owner, [a.id, b.id, c.id])} \
            == {(c.id, a.id)}
        await ports.store.delete_all(owner)
        assert await graph.edges_of(owner, [a.id, b.id, c.id]) == []

    async def test_remove_edge_takes_one_kind_or_all(
        self, ports: MemoryPorts, graph: GraphPort, owner: Owner
    ) -> None:
        a, b = stored(owner), stored(owner)
        await insert(ports.store, a, b)
        kinds = [EdgeKind.SEMANTIC, EdgeKind.CAUSAL, EdgeKind.NARRATIVE]
        await graph.add_edges(owner, [edge(a, b, k) for k in kinds], cap_per_node=CAP)
        assert await graph.remove_edge(owner, a.id, b.id, EdgeKind.CAUSAL) == 1
        assert {e.kind for e in await graph.edges_of(owner, [a.id])} == {
            EdgeKind.SEMANTIC, EdgeKind.NARRATIVE,
        }
        assert await graph.remove_edge(owner, b.id, a.id, None) == 0  # direction matters
        assert await graph.remove_edge(owner, a.id, b.id, None) == 2

    async def test_predecessors_are_the_owners_memories_said_just_before(
        self, ports: MemoryPorts, graph: GraphPort, owner: Owner
    ) -> None:
        stranger = Owner(owner.tenant, owner.user_id + "-stranger")
        first = stored(owner, created_at=T0)
        second = stored(owner, created_at=T0 + timedelta(minutes=5), conversation_id="c")
        theirs = stored(stranger, created_at=T0 + timedelta(minutes=6))
        third = stored(owner, created_at=T0 + timedelta(minutes=7))
        await insert(ports.store, first, second, theirs, third)
        found = await graph.predecessors(owner, [
            Moment(m.id, m.created_at, m.conversation_id) for m in (first, second, third)
        ])
        assert found == {
            second.id: Moment(first.id, first.created_at, None),
            third.id: Moment(second.id, second.created_at, "c"),
        }

    async def test_replacing_edges_are_read_alone_from_either_end(
        self, ports: MemoryPorts, graph: GraphPort, owner: Owner
    ) -> None:
        old, new, other = stored(owner), stored(owner), stored(owner)
        await insert(ports.store, old, new, other)
        await graph.add_edges(owner, [
            edge(new, old, EdgeKind.SUPERSEDES, 1.0), edge(new, old),
            edge(other, new, EdgeKind.CONTRADICTION, 1.0), edge(other, old, EdgeKind.CHAIN),
        ], cap_per_node=CAP)
        replacing = [EdgeKind.SUPERSEDES, EdgeKind.CONTRADICTION]
        assert {(e.source, e.target, e.kind) for e in await graph.edges_of(
            owner, [old.id], replacing
        )} == {(new.id, old.id, EdgeKind.SUPERSEDES)}
        assert {e.kind for e in await graph.edges_of(owner, [new.id], replacing)} == set(
            replacing
        )
        assert [e.kind for e in await graph.edges_of(owner, [old.id], [EdgeKind.SUPERSEDES])] == [
            EdgeKind.SUPERSEDES
        ]
