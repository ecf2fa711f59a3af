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

    `idle_slots(count)` takes `count` slots at once, but only when every slot is free and
    nobody waits (a query may then use idle cores); otherwise it takes none.
    """

    def __init__(self, size: int) -> None:
        self._size = size
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

    @property
    def idle(self) -> bool:
        """No slot is held and nobody waits for one."""
        return self._free == self._size and not self._waiting

    @asynccontextmanager
    async def idle_slots(self, count: int) -> AsyncIterator[bool]:
        """`count` slots when all are free (yields True), else none (yields False); the
        caller then takes the ordinary slot. Never waits."""
        taken = 0 < count <= self._free and self.idle
        if taken:
            self._free -= count
        try:
            yield taken
        finally:
            for _ in range(count if taken else 0):
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
