"""PostgresGraphAdapter: GraphPort on `memory_edges`, one statement per call."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from uuid import UUID

import asyncpg

from memlane.adapters.postgres.graph import sql as graph_sql
from memlane.adapters.postgres.graph.edge_uses import DeferredEdgeUses, edge_uses, write_edge_uses
from memlane.adapters.postgres.memories import affected_rows
from memlane.adapters.postgres.pool import connection_from
from memlane.domain.graph import Edge, EdgeKind, Moment, Walk
from memlane.domain.model import Owner
from memlane.ports.graph import GraphPort


class PostgresGraphAdapter(GraphPort):
    """Edges of one owner at a time, always scoped by tenant and user."""

    def __init__(self, pool: asyncpg.Pool, use_flush_ms: int | None = None) -> None:
        """`use_flush_ms`, when given, defers `use_edges` off the request path: uses queue
        and are written together that many ms later (call `close()` before the pool
        closes). Without it each call writes at once."""
        self._pool = pool
        self._uses = None if use_flush_ms is None else DeferredEdgeUses(pool, use_flush_ms)

    async def add_edges(self, owner: Owner, edges: Sequence[Edge], *, cap_per_node: int) -> int:
        if not edges:
            return 0
        semantic_ends = {
            end for e in edges if e.kind == EdgeKind.SEMANTIC for end in (e.source, e.target)
        }
        async with connection_from(self._pool) as connection, connection.transaction():
            stored = await connection.fetchval(
                graph_sql.ADD_EDGES, owner.tenant, owner.user_id,
                [e.source for e in edges], [e.target for e in edges],
                [e.kind.value for e in edges], [float(e.weight) for e in edges],
                [e.created_at for e in edges], [e.activated_at for e in edges],
            )
            doomed = await connection.fetch(
                graph_sql.CAP_SEMANTIC, owner.tenant, owner.user_id,
                list(semantic_ends), cap_per_node,
            ) if semantic_ends else []
            if doomed:
                await connection.execute(
                    graph_sql.DELETE_SEMANTIC, owner.tenant, owner.user_id,
                    [r["source"] for r in doomed], [r["target"] for r in doomed],
                )
        return int(stored)

    async def use_edges(
        self, owner: Owner, keys: Sequence[tuple[UUID, UUID, EdgeKind]], now: datetime
    ) -> int:
        if not keys:
            return 0
        uses = edge_uses(owner, keys, now)
        if self._uses is not None:
            self._uses.queue(uses)
            return len(uses)
        async with connection_from(self._pool) as connection:
            return await write_edge_uses(connection, uses)

    async def close(self) -> None:
        """Write edge uses still queued (a no-op when they are not deferred)."""
        if self._uses is not None:
            await self._uses.close()

    async def edges_of(
        self,
        owner: Owner,
        memory_ids: Collection[UUID],
        kinds: Collection[EdgeKind] | None = None,
    ) -> list[Edge]:
        if not memory_ids:
            return []
        wanted = None if kinds is None else [k.value for k in kinds]
        async with connection_from(self._pool) as connection:
            records = await connection.fetch(
                graph_sql.EDGES_OF, owner.tenant, owner.user_id, list(memory_ids), wanted
            )
        return [_edge(r) for r in records]

    async def neighbourhood(self, owner: Owner, walk: Walk) -> list[Edge]:
        if not walk.seeds and not walk.also:
            return []
        seeds = list(walk.seeds.items())
        async with connection_from(self._pool) as connection:
            records = await connection.fetch(
                graph_sql.NEIGHBOURHOOD, owner.tenant, owner.user_id,
                [s for s, _ in seeds], [float(a) for _, a in seeds], walk.fan_out,
                walk.frontier, sorted(k.value for k in walk.walked), list(walk.also),
            )
        return [_edge(r) for r in records]

    async def remove_edge(
        self, owner: Owner, source: UUID, target: UUID, kind: EdgeKind | None
    ) -> int:
        async with connection_from(self._pool) as connection:
            status = await connection.execute(
                graph_sql.REMOVE_EDGE, owner.tenant, owner.user_id, source, target,
                None if kind is None else kind.value,
            )
        return affected_rows(status)

    async def predecessors(self, owner: Owner, moments: Sequence[Moment]) -> dict[UUID, Moment]:
        if not moments:
            return {}
        async with connection_from(self._pool) as connection:
            records = await connection.fetch(
                graph_sql.PREDECESSORS, owner.tenant, owner.user_id,
                [m.id for m in moments], [m.created_at for m in moments],
            )
        return {
            r["new_id"]: Moment(r["id"], r["created_at"], r["conversation_id"]) for r in records
        }


def _edge(record: asyncpg.Record) -> Edge:
    return Edge(
        source=record["source"], target=record["target"], kind=EdgeKind(record["kind"]),
        weight=float(record["weight"]), created_at=record["created_at"],
        activated_at=record["activated_at"],
    )
