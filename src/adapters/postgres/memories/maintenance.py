"""PostgresMaintenanceAdapter: MaintenancePort as set-based statements over the heat table."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

import asyncpg

from memlane.adapters.postgres.memories import sql
from memlane.adapters.postgres.memories.access_log import DeferredAccessLog, write_accesses
from memlane.adapters.postgres.memories.rows import (
    affected_rows,
    decay_params,
    to_stored_many,
    vector_array_param,
)
from memlane.adapters.postgres.pool import connection_from
from memlane.adapters.postgres.readiness import database_ready
from memlane.adapters.postgres.vector_checks import dimension_errors
from memlane.domain.memories import CleanupRule
from memlane.domain.model import MemoryStats, Owner, StoredMemory, Vector
from memlane.domain.reach import Reach, TenantReach
from memlane.ports.memories import MaintenancePort

# asyncpg reads timeout=None as "the pool's command_timeout" (10 s by default), which a
# decay or cleanup over a million rows can exceed: whole-table maintenance gets an hour.
MAINTENANCE_TIMEOUT_S = 3600.0
# A cleanup over every owner runs as this many statements over disjoint owners, side by side
# (one database core each; the pool must allow as many connections).
MAINTENANCE_SHARES = 2
READINESS_TIMEOUT_S = 2.0


class PostgresMaintenanceAdapter(MaintenancePort):
    """Decay, cleanup, stats and backfill reads/writes; accesses optionally deferred."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        access_flush_ms: int | None = None,
        maintenance_shares: int = MAINTENANCE_SHARES,
    ) -> None:
        """`access_flush_ms`, when given, defers `record_access` off the request path:
        accesses are queued and written together that many ms later (call `close()` before
        the pool closes so none is lost). Without it each call writes at once.

        `maintenance_shares`: how many statements over disjoint owners a cleanup of every
        owner runs side by side (see MAINTENANCE_SHARES)."""
        self._pool = pool
        self._shares = max(1, maintenance_shares)
        self._access_log = (
            None if access_flush_ms is None else DeferredAccessLog(pool, access_flush_ms)
        )

    async def close(self) -> None:
        """Write accesses still queued (a no-op when access recording is not deferred)."""
        if self._access_log is not None:
            await self._access_log.close()

    async def record_access(
        self, owner: Owner, memory_ids: Sequence[UUID], now: datetime, base_rate: float
    ) -> int:
        if not memory_ids:
            return 0
        if self._access_log is not None:
            self._access_log.add(owner, memory_ids, now, base_rate)
            return len(set(memory_ids))
        unique = dict.fromkeys(memory_ids)  # one access per memory per call, as deferred
        accesses = [(owner.tenant, owner.user_id, i, now, base_rate) for i in unique]
        async with connection_from(self._pool) as connection:
            return await write_accesses(connection, accesses)

    async def materialise_decay(self, owner: Reach, now: datetime, base_rate: float) -> int:
        params = decay_params(now, base_rate)
        statement = sql.MATERIALISE_DECAY_ALL
        if isinstance(owner, TenantReach):
            statement = sql.MATERIALISE_DECAY_TENANT
            params += [owner.tenant]
        elif owner is not None:
            statement = sql.MATERIALISE_DECAY_OWNER
            params += [owner.tenant, owner.user_id]
        async with connection_from(self._pool) as connection:
            status = await connection.execute(statement, *params, timeout=MAINTENANCE_TIMEOUT_S)
        return affected_rows(status)

    async def cleanup(
        self, owner: Reach, rule: CleanupRule, now: datetime, base_rate: float
    ) -> int:
        params = [*decay_params(now, base_rate), rule.min_importance, rule.arrived_by(now)]
        if isinstance(owner, TenantReach):
            async with connection_from(self._pool) as connection:
                count = await connection.fetchval(
                    sql.CLEANUP_TENANT, *params, owner.tenant, timeout=MAINTENANCE_TIMEOUT_S
                )
            return int(count)
        if owner is not None:
            async with connection_from(self._pool) as connection:
                count = await connection.fetchval(
                    sql.CLEANUP_OWNER, *params, owner.tenant, owner.user_id,
                    timeout=MAINTENANCE_TIMEOUT_S,
                )
            return int(count)

        async def share(index: int) -> int:
            async with connection_from(self._pool) as connection:
                count = await connection.fetchval(
                    sql.CLEANUP_SHARE, *params, self._shares, index,
                    timeout=MAINTENANCE_TIMEOUT_S,
                )
            return int(count)

        # Deleting rows fires the term-statistics and postings triggers: the bulk of the
        # work (7 of 10 s for 129k memories) and single-threaded per statement.
        return sum(await asyncio.gather(*(share(i) for i in range(self._shares))))

    async def stats(self, owner: Reach, now: datetime, base_rate: float) -> MemoryStats:
        params = decay_params(now, base_rate)
        statement = sql.STATS_ALL
        if isinstance(owner, TenantReach):
            statement = sql.STATS_TENANT
            params += [owner.tenant]
        elif owner is not None:
            statement = sql.STATS_OWNER
            params += [owner.tenant, owner.user_id]
        async with connection_from(self._pool) as connection:
            records = await connection.fetch(statement, *params)
        total = sum(int(r["total"]) for r in records)
        importance_sum = sum(float(r["importance_sum"]) for r in records)
        return MemoryStats(
            total=total,
            by_type={r["memory_type"]: int(r["total"]) for r in records},
            with_embeddings=sum(int(r["with_embeddings"]) for r in records),
            avg_importance=importance_sum / total if total else 0.0,
        )

    async def missing_embeddings(self, limit: int) -> list[StoredMemory]:
        async with connection_from(self._pool) as connection:
            return to_stored_many(await connection.fetch(sql.MISSING_EMBEDDINGS, limit))

    async def set_embeddings(self, items: Sequence[tuple[Owner, UUID, Vector]], model: str) -> int:
        if not items:
            return 0
        async with connection_from(self._pool) as connection, dimension_errors():
            status = await connection.execute(
                sql.SET_EMBEDDINGS,
                [owner.tenant for owner, _, _ in items],
                [owner.user_id for owner, _, _ in items],
                [memory_id for _, memory_id, _ in items],
                vector_array_param([vector for _, _, vector in items]),
                model,
            )
        return affected_rows(status)

    async def ready(self) -> bool:
        return await database_ready(self._pool, READINESS_TIMEOUT_S)
