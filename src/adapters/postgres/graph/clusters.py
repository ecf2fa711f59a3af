"""PostgresClusterAdapter: ClusterPort on `memory_clusters` and the summary memory rows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from uuid import UUID

import asyncpg

from memlane.adapters.postgres.graph import clusters_sql, sql as graph_sql
from memlane.adapters.postgres.memories import (
    MAINTENANCE_TIMEOUT_S,
    PostgresWriteSession,
    vector_param,
)
from memlane.adapters.postgres.pool import connection_from
from memlane.adapters.postgres.transactions import owner_transaction
from memlane.domain.graph import Cluster, Pair, Regrouping
from memlane.domain.model import Owner, Vector
from memlane.domain.reach import Reach, bounds
from memlane.ports.clusters import ClusterHit, ClusterPort, ClusterWrite


def _owners(owners: Sequence[Owner]) -> tuple[list[str], list[str]]:
    return [o.tenant for o in owners], [o.user_id for o in owners]


class PostgresClusterAdapter(ClusterPort):
    """Grouping reads are one statement for many owners; an owner's save is one transaction
    under its write lock (the memory store's), so a write of the owner waits for it."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def owners(self, reach: Reach, now: datetime, limit: int) -> list[Owner]:
        async with connection_from(self._pool) as connection:
            records = await connection.fetch(
                clusters_sql.OWNERS, *bounds(reach), now, limit,
                timeout=MAINTENANCE_TIMEOUT_S)
        return [Owner(r["tenant"], r["user_id"]) for r in records]

    async def pairs(
        self, owners: Sequence[Owner], threshold: float, nearest: int, per_anchor: int,
        least: int, whole: int,
    ) -> dict[Owner, Regrouping]:
        if not owners:
            return {}
        async with connection_from(self._pool) as connection:
            records = await connection.fetch(
                clusters_sql.PAIRS, *_owners(owners), threshold, nearest, per_anchor, least,
                whole, timeout=MAINTENANCE_TIMEOUT_S)
        anchors: dict[Owner, set[UUID]] = {}
        pairs: dict[Owner, list[Pair]] = {}
        for r in records:
            owner = Owner(r["tenant"], r["user_id"])
            anchors.setdefault(owner, set()).add(r["entity_id"])
            if r["first"] is not None:
                pairs.setdefault(owner, []).append(Pair(r["entity_id"], r["first"], r["second"]))
        return {o: Regrouping(frozenset(a), tuple(pairs.get(o, ()))) for o, a in anchors.items()}

    async def clusters(self, owners: Sequence[Owner]) -> dict[Owner, list[Cluster]]:
        if not owners:
            return {}
        async with connection_from(self._pool) as connection:
            records = await connection.fetch(clusters_sql.CLUSTERS, *_owners(owners))
        found: dict[Owner, list[Cluster]] = {}
        for r in records:
            found.setdefault(Owner(r["tenant"], r["user_id"]), []).append(
                Cluster(r["id"], r["anchor"], tuple(r["members"]), r["stale"]))
        return found

    async def save(
        self, owner: Owner, writes: Sequence[ClusterWrite], dropped: Sequence[UUID],
        now: datetime,
    ) -> None:
        if not writes and not dropped:
            return
        ids = [w.stored.id for w in writes]
        pairs = [(w.stored.id, m) for w in writes for m in w.members]
        edges = [e for w in writes for e in w.edges]
        async with owner_transaction(self._pool, owner) as connection:
            key = (owner.tenant, owner.user_id)
            if dropped:
                await connection.execute(clusters_sql.DROP, *key, list(dropped))
            if not writes:
                return
            present = {r["id"] for r in await connection.fetch(
                "SELECT id FROM memories WHERE tenant = $1 AND user_id = $2"
                " AND id = ANY($3::uuid[])", *key, ids)}
            session = PostgresWriteSession(connection, owner)
            await session.insert_many([w.stored for w in writes if w.stored.id not in present])
            await session.replace_many([w.stored for w in writes if w.stored.id in present])
            await connection.execute(
                clusters_sql.SAVE_CLUSTERS, *key, ids, [w.anchor for w in writes],
                [p[0] for p in pairs], [p[1] for p in pairs], now)
            await connection.execute(
                clusters_sql.UNLINK_FORMER, *key, ids, [p[0] for p in pairs],
                [p[1] for p in pairs])
            await connection.fetchval(
                graph_sql.ADD_EDGES, *key, [e.source for e in edges],
                [e.target for e in edges], [e.kind.value for e in edges],
                [float(e.weight) for e in edges], [e.created_at for e in edges],
                [e.activated_at for e in edges])

    async def mark(self, marks: Mapping[Owner, datetime]) -> None:
        if not marks:
            return
        owners = list(marks)
        async with connection_from(self._pool) as connection:
            await connection.execute(
                clusters_sql.MARK, *_owners(owners), [marks[o] for o in owners])

    async def nearest(
        self, owner: Owner, vector: Vector, model: str, limit: int
    ) -> list[ClusterHit]:
        async with connection_from(self._pool) as connection:
            records = await connection.fetch(
                clusters_sql.NEAREST, owner.tenant, owner.user_id, vector_param(vector),
                model, limit)
        return [ClusterHit(r["id"], float(r["similarity"]), tuple(r["members"]))
                for r in records]
