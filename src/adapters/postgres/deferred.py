"""Deferred writes: items queue in memory and reach the database together, off the request."""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import suppress
from typing import Generic, TypeVar

import asyncpg

from memlane.adapters.postgres.pool import connection_from
from memlane.domain.errors import StorageUnavailable

log = logging.getLogger(__name__)

# Past this many queued items the oldest are dropped (and counted in the log) rather than
# letting a long database outage grow the queue without bound.
MAX_PENDING = 50_000

Item = TypeVar("Item")


class DeferredWrites(ABC, Generic[Item]):
    """Takes items without waiting and writes them `flush_interval_ms` later, together.

    A request then costs no UPDATE and no commit; under load, many requests share one
    statement. `flush()` writes everything queued (call `close()` before the pool closes).
    """

    what = "items"  # named in the log

    def __init__(self, pool: asyncpg.Pool, flush_interval_ms: int) -> None:
        self._pool = pool
        self._interval_s = flush_interval_ms / 1000
        self._pending: list[Item] = []
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    @abstractmethod
    async def write(self, connection: asyncpg.Connection, batch: Sequence[Item]) -> int:
        """Write one batch (in arrival order) on `connection`."""

    def queue(self, items: Sequence[Item]) -> None:
        self._pending.extend(items)
        if len(self._pending) > MAX_PENDING:
            dropped = len(self._pending) - MAX_PENDING
            del self._pending[:dropped]
            log.warning("%s log full: %d oldest dropped", self.what, dropped)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._flush_later())

    async def _flush_later(self) -> None:
        await asyncio.sleep(self._interval_s)
        try:
            await self.flush()
        except StorageUnavailable as error:
            log.warning("%s log: database unavailable, will retry: %s", self.what, error)
            if self._pending:
                self._task = asyncio.get_running_loop().create_task(self._flush_later())

    async def flush(self) -> int:
        """Write every queued item now; the number of items written."""
        async with self._lock:
            batch, self._pending = self._pending, []
            if not batch:
                return 0
            try:
                async with connection_from(self._pool) as connection:
                    await self.write(connection, batch)
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
