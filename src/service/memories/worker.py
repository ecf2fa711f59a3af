"""DecayWorker: periodic decay, cleanup and the sleep cycle in the background, one replica at
a time."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from memlane.domain.errors import StorageUnavailable
from memlane.domain.memories import SleepReport
from memlane.domain.model import Owner
from memlane.domain.reach import Reach
from memlane.ports.clock import Clock, system_clock
from memlane.ports.leader import LeaderLockPort

log = logging.getLogger(__name__)


class Maintainable(Protocol):
    """The part of MemoryService the worker drives."""

    async def decay(self, owner: Owner | None = None) -> int: ...

    async def cleanup(self, owner: Owner | None = None) -> int: ...


class Sleeper(Protocol):
    """The sleep cycle (SleepCycle) the worker runs after decay and cleanup."""

    async def bounded(self, reach: Reach) -> SleepReport: ...


@dataclass(frozen=True, slots=True)
class WorkerRun:
    """What one maintenance run did."""

    finished_at: datetime
    decayed: int
    cleaned: int
    slept: SleepReport | None = None  # None: the sleep cycle is not the worker's


class DecayWorker:
    """Runs `decay()` then, if enabled, `cleanup()`, then with `sleep` the sleep cycle
    (over what changed since the last one), every `interval_s` seconds.

    The first run comes `first_run_delay_s` after `start()`. Each run first takes the leader
    lock without waiting: if another replica holds it, this one skips the round, so decay
    never runs twice concurrently. A failed run is logged and retried next interval; the
    worker never dies of an error, only of `stop()` (cancellation). A sleep cycle that
    stopped at its budget with memories left (the first one after an upgrade reads every
    row) goes on `resume_s` later, alone, run after bounded run, until nothing is left:
    each run holds the database briefly, and the backlog still clears within the hour.
    """

    def __init__(
        self,
        service: Maintainable,
        leader: LeaderLockPort,
        interval_s: float = 86_400.0,
        first_run_delay_s: float = 30.0,
        cleanup: bool = True,
        clock: Clock = system_clock,
        sleep: Sleeper | None = None,
        resume_s: float = 60.0,
    ) -> None:
        if interval_s <= 0 or resume_s <= 0:
            raise ValueError("interval_s and resume_s must be positive")
        self._service = service
        self._leader = leader
        self._interval_s = interval_s
        self._first_run_delay_s = max(0.0, first_run_delay_s)
        self._cleanup = cleanup
        self._clock = clock
        self._sleep = sleep
        self._resume_s = resume_s
        self._task: asyncio.Task[None] | None = None
        self.runs = 0
        self.skipped = 0
        self.resumed = 0
        self.failures = 0
        self.last_run: WorkerRun | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Schedule the loop on the running event loop (idempotent)."""
        if not self.running:
            self._task = asyncio.get_running_loop().create_task(
                self._loop(), name="memlane-decay-worker"
            )

    async def stop(self) -> None:
        """Cancel the loop and wait for it; a run in progress is abandoned mid-way safely
        because every statement it issues is its own transaction."""
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            # Only swallow the cancellation we caused, not one aimed at our caller.
            current = asyncio.current_task()
            if current is not None and current.cancelling():
                raise

    async def __aenter__(self) -> DecayWorker:
        self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    async def run_once(self) -> WorkerRun | None:
        """One round: the run's result, or None when another replica holds the lock."""
        async with self._leader.hold() as leading:
            if not leading:
                self.skipped += 1
                return None
            decayed = await self._service.decay(None)
            cleaned = await self._service.cleanup(None) if self._cleanup else 0
            slept = None if self._sleep is None else await self._sleep.bounded(None)
        run = WorkerRun(finished_at=self._clock(), decayed=decayed, cleaned=cleaned, slept=slept)
        self.runs += 1
        self.last_run = run
        log.info("decay run: %d importance values changed, %d memories cleaned", decayed, cleaned)
        return run

    async def _round(self) -> int:
        run = await self.run_once()
        return 0 if run is None or run.slept is None else run.slept.left

    async def _resume(self) -> int:
        slept = await self.resume_sleep()
        return 0 if slept is None else slept.left

    async def resume_sleep(self) -> SleepReport | None:
        """One more bounded run of a sleep cycle that has memories left; None when another
        replica holds the lock (or the sleep cycle is not the worker's)."""
        if self._sleep is None:
            return None
        async with self._leader.hold() as leading:
            if not leading:
                self.skipped += 1
                return None
            slept = await self._sleep.bounded(None)
        self.resumed += 1
        log.info("sleep cycle resumed: %d memories read, %d left", slept.scanned, slept.left)
        return slept

    async def _loop(self) -> None:
        now = asyncio.get_running_loop().time
        # The next full round (decay, cleanup, sleep), `interval_s` after the last one ended;
        # resumed sleep runs fit in between and do not move it.
        due, left = now() + self._first_run_delay_s, 0
        while True:
            resuming = left > 0 and now() + self._resume_s < due
            await asyncio.sleep(self._resume_s if resuming else max(0.0, due - now()))
            left = 0
            try:
                left = await self._resume() if resuming else await self._round()
            except asyncio.CancelledError:
                raise
            except StorageUnavailable as error:  # an outage: one line, it is not a bug
                self.failures += 1
                log.warning("decay run failed (%s); retrying in %.0f s", error, self._interval_s)
            except Exception:
                self.failures += 1
                log.exception("decay run failed; retrying in %.0f s", self._interval_s)
            if not resuming:
                due = now() + self._interval_s
