"""LearningQueue: exchanges learned in the background, bounded in workers and in length."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import traceback
from collections.abc import Awaitable, Callable

from memlane.service.proxy.memory import LearnJob

log = logging.getLogger(__name__)


class LearningQueue:
    """`concurrency` workers, each with its own queue: a conversation always goes to the same
    worker, so its exchanges are stored in the order they were answered. A full queue drops
    the exchange (counted); the chat never waits for learning. `stop` drains what is queued
    within `drain_timeout_s`, then abandons the rest (counted as dropped)."""

    def __init__(
        self,
        learn: Callable[[LearnJob], Awaitable[None]],
        concurrency: int = 2,
        max_queued: int = 256,
        drain_timeout_s: float = 10.0,
    ) -> None:
        if concurrency < 1 or max_queued < 1:
            raise ValueError("concurrency and max_queued must be at least 1")
        self._learn = learn
        per_worker = max(1, -(-max_queued // concurrency))
        self._queues: list[asyncio.Queue[LearnJob]] = [
            asyncio.Queue(per_worker) for _ in range(concurrency)
        ]
        self._drain_timeout_s = drain_timeout_s
        self._workers: list[asyncio.Task[None]] = []
        self.queued = 0
        self.stored = 0
        self.failed = 0
        self.dropped = 0

    @property
    def depth(self) -> int:
        """Exchanges waiting now."""
        return sum(q.qsize() for q in self._queues)

    def start(self) -> None:
        if not self._workers:
            self._workers = [
                asyncio.get_running_loop().create_task(self._work(q), name=f"memlane-learn-{i}")
                for i, q in enumerate(self._queues)
            ]

    def submit(self, job: LearnJob) -> bool:
        """Queue the exchange; False (and counted as dropped) when its worker's queue is full."""
        shard = hash((job.owner, job.conversation_id)) % len(self._queues)
        try:
            self._queues[shard].put_nowait(job)
        except asyncio.QueueFull:
            self.dropped += 1
            log.warning("learning queue full: an exchange was dropped")
            return False
        self.queued += 1
        return True

    async def drained(self) -> None:
        """Wait until everything queued so far is stored (or failed)."""
        await asyncio.gather(*(q.join() for q in self._queues))

    async def stop(self) -> None:
        """Drain within the timeout, then stop the workers."""
        if self._workers:
            try:
                async with asyncio.timeout(self._drain_timeout_s):
                    await self.drained()
            except TimeoutError:
                left = self.depth
                self.dropped += left
                log.warning("learning queue not drained in time: %d exchanges dropped", left)
        workers, self._workers = self._workers, []
        for worker in workers:
            worker.cancel()
        for worker in workers:
            with contextlib.suppress(asyncio.CancelledError):
                await worker

    async def _work(self, queue: asyncio.Queue[LearnJob]) -> None:
        while True:
            job = await queue.get()
            try:
                await self._learn(job)
                self.stored += 1
            except asyncio.CancelledError:
                raise
            except Exception as error:
                # Type and frames only: an exception message may quote what was said.
                self.failed += 1
                log.warning(
                    "learning an exchange failed: %s\n%s", type(error).__name__,
                    "".join(traceback.format_tb(error.__traceback__)),
                )
            finally:
                queue.task_done()
