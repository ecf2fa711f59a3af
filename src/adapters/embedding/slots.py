"""PrioritySlots: a fixed number of worker slots where waiting queries go before documents."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

QUERY, DOCUMENT = 0, 1


class PrioritySlots:
    """Like asyncio.Semaphore(size), but a freed slot goes to the best waiting priority
    (lower first), first come first served within one priority.

    A write of 64 memories queues 64 model runs; a query arriving meanwhile waits for one
    run to finish, not for the whole batch.
    """

    def __init__(self, size: int) -> None:
        self._free = size
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    @asynccontextmanager
    async def slot(self, priority: int) -> AsyncIterator[None]:
        await self._acquire(priority)
        try:
            yield
        finally:
            self._release()

    async def _acquire(self, priority: int) -> None:
        if self._free > 0 and not self._waiting:
            self._free -= 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), future))
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self._release()  # handed a slot as it was cancelled: pass it on
            raise

    def _release(self) -> None:
        while self._waiting:
            _, _, future = heapq.heappop(self._waiting)
            if not future.done():
                future.set_result(None)  # the slot moves to the waiter as it is
                return
        self._free += 1
