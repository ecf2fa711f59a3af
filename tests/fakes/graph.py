"""FakeGraph: an in-memory GraphPort over a FakeMemoryTable, with the adapter's semantics."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace
from datetime import datetime
from uuid import UUID

from memlane.domain.graph.activation_walk import Walk, walked
from memlane.domain.graph.edges import Edge, EdgeKind, used
from memlane.domain.graph.temporal import Moment
from memlane.domain.model import Owner
from memlane.ports.graph import GraphPort
from tests.fakes.memory_table import FakeMemoryTable


class FakeGraph(GraphPort):
    """Edges per owner; edges of memories no longer in the table are gone, as by cascade."""

    def __init__(self, table: FakeMemoryTable) -> None:
        self._table = table
        self._edges: dict[Owner, dict[tuple[UUID, UUID, EdgeKind], Edge]] = {}

    def _live(self, owner: Owner) -> dict[tuple[UUID, UUID, EdgeKind], Edge]:
        rows = self._table._rows.get(owner, {})
        edges = self._edges.setdefault(owner, {})
        for key in [k for k, e in edges.items() if e.source not in rows or e.target not in rows]:
            del edges[key]
        return edges

    async def add_edges(self, owner: Owner, edges: Sequence[Edge], *, cap_per_node: int) -> int:
        live = self._live(owner)
        rows = self._table._rows.get(owner, {})
        stored = 0
        for edge in edges:
            if edge.source not in rows or edge.target not in rows:
                continue
            old = live.get(edge.key)
            if old is None:
                live[edge.key] = edge
            else:
                live[edge.key] = replace(
                    old, weight=max(old.weight, edge.weight),
                    activated_at=max(old.activated_at, edge.activated_at),
                )
            stored += 1
        ends = {end for e in edges if e.kind == EdgeKind.SEMANTIC for end in (e.source, e.target)}
        doomed: set[tuple[UUID, UUID, EdgeKind]] = set()
        for node in ends:
            touching = [
                e for e in live.values()
                if e.kind == EdgeKind.SEMANTIC and node in (e.source, e.target)
            ]
            touching.sort(key=lambda e: (-e.weight, e.created_at, e.source, e.target))
            doomed.update(e.key for e in touching[cap_per_node:])
        for key in doomed:
            del live[key]
        return stored

    async def use_edges(
        self, owner: Owner, keys: Sequence[tuple[UUID, UUID, EdgeKind]], now: datetime
    ) -> int:
        live = self._live(owner)
        taken = 0
        for key in keys:
            if key in live:
                live[key] = used(live[key], now)
                taken += 1
        return taken

    async def edges_of(
        self,
        owner: Owner,
        memory_ids: Collection[UUID],
        kinds: Collection[EdgeKind] | None = None,
    ) -> list[Edge]:
        wanted = set(memory_ids)
        return [
            e for e in self._live(owner).values()
            if (e.source in wanted or e.target in wanted) and (kinds is None or e.kind in kinds)
        ]

    async def neighbourhood(self, owner: Owner, walk: Walk) -> list[Edge]:
        return walked(self._live(owner).values(), walk)

    async def remove_edge(
        self, owner: Owner, source: UUID, target: UUID, kind: EdgeKind | None
    ) -> int:
        live = self._live(owner)
        keys = [k for k in live if k[0] == source and k[1] == target and kind in (None, k[2])]
        for key in keys:
            del live[key]
        return len(keys)

    async def predecessors(self, owner: Owner, moments: Sequence[Moment]) -> dict[UUID, Moment]:
        rows = list(self._table._rows.get(owner, {}).values())
        found: dict[UUID, Moment] = {}
        for moment in moments:
            earlier = [r for r in rows if (r.created_at, r.id) < (moment.created_at, moment.id)]
            if earlier:
                last = max(earlier, key=lambda r: (r.created_at, r.id))
                found[moment.id] = Moment(last.id, last.created_at, last.conversation_id)
        return found


def fake_graph_for(ports: object) -> FakeGraph:
    """A FakeGraph over the same table as `fake_memory_ports(...)`'s fakes."""
    return FakeGraph(ports.store._table)  # type: ignore[attr-defined]
