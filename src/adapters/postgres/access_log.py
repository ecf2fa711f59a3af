"""Deferred access recording: accesses queue in memory and reach memory_heat in batches."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from contextlib import suppress
from datetime import datetime
from uuid import UUID

import asyncpg

from memlane.adapters.postgres import sql
from memlane.adapters.postgres.pool import connection_from
from memlane.adapters.postgres.rows import DECAY_CONSTANTS, affected_rows
from memlane.domain.errors import StorageUnavailable
from memlane.domain.model import Owner

log = logging.getLogger(__name__)

# Past this many queued accesses the oldest are dropped (and counted in the log) rather
# than letting a long database outage grow the queue without bound.
MAX_PENDING = 50_000

Access = tuple[str, str, UUID, datetime, float]


async def write_accesses(connection: asyncpg.Connection, accesses: Sequence[Access]) -> int:
    """Record these accesses (decay banked, clock restarted) in one transaction: the one
    place access recording is written, deferred or not. Returns the rows updated."""
    updated = 0
    async with connection.transaction():
        for part in rounds(accesses):
            status = await connection.execute(
                sql.RECORD_ACCESSES,
                [a[0] for a in part], [a[1] for a in part], [a[2] for a in part],
                [a[3] for a in part], [a[4] for a in part],
                *DECAY_CONSTANTS,
            )
            updated += affected_rows(status)
    return updated


def rounds(accesses: Sequence[Access]) -> list[list[Access]]:
    """Split into rounds in which each memory appears at most once, keeping arrival order."""
    out: list[list[Access]] = []
    seen: dict[tuple[str, str, UUID], int] = {}
    for access in accesses:
        key = (access[0], access[1], access[2])
        index = seen.get(key, 0)
        seen[key] = index + 1
        if index == len(out):
            out.append([])
        out[index].append(access)
    return out


class DeferredAccessLog:
    """Takes accesses without waiting and writes them `flush_interval_ms` later, together.

    A context request then costs no UPDATE and no commit; under load, many requests share
    one statement. `flush()` writes everything queued (call it before the pool closes).
    """

    def __init__(self, pool: asyncpg.Pool, flush_interval_ms: int) -> None:
        self._pool = pool
        self._interval_s = flush_interval_ms / 1000
        self._pending: list[Access] = []
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    def add(
        self, owner: Owner, memory_ids: Sequence[UUID], now: datetime, base_rate: float
    ) -> None:
        for memory_id in dict.fromkeys(memory_ids):  # one access per memory per request
            self._pending.append((owner.tenant, owner.user_id, memory_id, now, base_rate))
        if len(self._pending) > MAX_PENDING:
            dropped = len(self._pending) - MAX_PENDING
            del self._pending[:dropped]
            log.warning("access log full: %d oldest accesses dropped", dropped)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._flush_later())

    async def _flush_later(self) -> None:
        await asyncio.sleep(self._interval_s)
        try:
            await self.flush()
        except StorageUnavailable as error:
            log.warning("access log: database unavailable, will retry: %s", error)
            if self._pending:
                self._task = asyncio.get_running_loop().create_task(self._flush_later())

    async def flush(self) -> int:
        """Write every queued access now; the number of accesses written."""
        async with self._lock:
            batch, self._pending = self._pending, []
            if not batch:
                return 0
            try:
                async with connection_from(self._pool) as connection:
                    await write_accesses(connection, batch)
            except StorageUnavailable:
                self._pending = batch + self._pending  # kept for the next attempt
                raise
            return len(batch)

    async def close(self) -> None:
        """Stop the timer and write what is queued."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with suppress(asyncio.CancelledError):
                await self._task
        await self.flush()
