"""PostgresSleepAdapter: SleepPort as one statement per step and batch."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from uuid import UUID

import asyncpg

from memlane.adapters.postgres.memories import sleep_sql
from memlane.adapters.postgres.memories.maintenance import MAINTENANCE_TIMEOUT_S
from memlane.adapters.postgres.memories.rows import affected_rows
from memlane.adapters.postgres.memories.write_sql import SCAN_ONCE_MAX_MEMORIES
from memlane.adapters.postgres.pool import connection_from
from memlane.domain.entities import COMMON_NAME_FLOOR
from memlane.domain.memories import Changed, NearPair
from memlane.domain.model import Owner
from memlane.domain.reach import Reach, bounds
from memlane.ports.memories import SleepPort


def _batch(batch: Sequence[Changed]) -> tuple[list[str], list[str], list[UUID]]:
    return ([c.owner.tenant for c in batch], [c.owner.user_id for c in batch],
            [c.id for c in batch])


class PostgresSleepAdapter(SleepPort):
    """`scan_once_max`: up to this many memories an owner's near-duplicates are found by
    exact scans in one statement with other owners'; a bigger owner gets its own statement."""

    def __init__(self, pool: asyncpg.Pool, scan_once_max: int = SCAN_ONCE_MAX_MEMORIES) -> None:
        self._pool = pool
        self._scan_once_max = scan_once_max

    async def pending(self, reach: Reach, now: datetime) -> int:
        async with connection_from(self._pool) as connection:
            count = await connection.fetchval(
                sleep_sql.PENDING, *bounds(reach), now, timeout=MAINTENANCE_TIMEOUT_S)
        return int(count)

    async def changed(self, reach: Reach, now: datetime, limit: int) -> list[Changed]:
        async with connection_from(self._pool) as connection:
            records = await connection.fetch(
                sleep_sql.CHANGED, *bounds(reach), now, limit, timeout=MAINTENANCE_TIMEOUT_S)
        return [Changed(Owner(r["tenant"], r["user_id"]), r["id"], r["updated_at"])
                for r in records]

    async def near_duplicates(
        self, batch: Sequence[Changed], threshold: float, neighbours: int
    ) -> list[NearPair]:
        if not batch:
            return []
        tenants, users, _ = _batch(batch)
        async with connection_from(self._pool) as connection:
            sizes = await connection.fetch(sleep_sql.OWNER_SIZES, tenants, users)
            big = {Owner(r["tenant"], r["user_id"]) for r in sizes
                   if r["n"] > self._scan_once_max}
            small = [c for c in batch if c.owner not in big]
            records = [] if not small else await connection.fetch(
                sleep_sql.NEAR_DUPLICATES, *_batch(small), threshold, neighbours,
                timeout=MAINTENANCE_TIMEOUT_S)
            pairs = [NearPair(Owner(r["tenant"], r["user_id"]), r["first"], r["second"])
                     for r in records]
            for owner in big:  # one statement per big owner: its own plan (HNSW)
                records = await connection.fetch(
                    sleep_sql.NEAR_DUPLICATES_OF_OWNER, owner.tenant, owner.user_id,
                    [c.id for c in batch if c.owner == owner], threshold, neighbours,
                    timeout=MAINTENANCE_TIMEOUT_S)
                pairs += [NearPair(owner, r["first"], r["second"]) for r in records]
        return pairs

    async def weave(
        self, batch: Sequence[Changed], now: datetime, weight: float, max_share: float
    ) -> int:
        if not batch:
            return 0
        async with connection_from(self._pool) as connection:
            status = await connection.execute(
                sleep_sql.WEAVE, *_batch(batch), now, weight, max_share, COMMON_NAME_FLOOR,
                timeout=MAINTENANCE_TIMEOUT_S)
        return affected_rows(status)

    async def advance(self, marks: Mapping[Owner, tuple[datetime, UUID]]) -> None:
        if not marks:
            return
        owners = list(marks)
        async with connection_from(self._pool) as connection:
            await connection.execute(
                sleep_sql.ADVANCE, [o.tenant for o in owners], [o.user_id for o in owners],
                [marks[o][0] for o in owners], [marks[o][1] for o in owners])

    async def prune(
        self, reach: Reach, now: datetime, min_strength: float,
        half_lives: Mapping[str, float],
    ) -> int:
        kinds = list(half_lives)
        async with connection_from(self._pool) as connection:
            status = await connection.execute(
                sleep_sql.PRUNE, *bounds(reach), kinds, [half_lives[k] for k in kinds], now,
                min_strength, timeout=MAINTENANCE_TIMEOUT_S)
        return affected_rows(status)
