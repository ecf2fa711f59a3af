"""The background decay worker: runs soon after start, one replica at a time, stops cleanly."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from memlane.adapters.postgres.leader import PostgresLeaderLockAdapter
from memlane.domain.memories import SleepReport
from memlane.domain.model import Owner
from memlane.domain.reach import Reach
from memlane.service.memories.worker import DecayWorker

pytestmark = pytest.mark.integration

# A lock key of its own so these tests never contend with a real worker on the same database.
TEST_LOCK_KEY = 0x7465737400000001


class RecordingMaintenance:
    """Counts decay/cleanup calls and how many decay runs overlap."""

    def __init__(self, decay_s: float = 0.0) -> None:
        self.decay_s = decay_s
        self.decays = 0
        self.cleanups = 0
        self.active = 0
        self.max_active = 0
        self.fail_next = False

    async def decay(self, owner: Owner | None = None) -> int:
        assert owner is None
        self.active += 1
        self.max_active = max(self.max_active, self.active)
        try:
            await asyncio.sleep(self.decay_s)
            if self.fail_next:
                self.fail_next = False
                raise RuntimeError("database hiccup")
            self.decays += 1
            return 3
        finally:
            self.active -= 1

    async def cleanup(self, owner: Owner | None = None) -> int:
        self.cleanups += 1
        return 1


class RecordingSleep:
    """Counts sleep cycles and what the service had done when each began."""

    def __init__(self, service: RecordingMaintenance) -> None:
        self.service = service
        self.seen: list[tuple[int, int]] = []

    async def bounded(self, reach: Reach) -> SleepReport:
        assert reach is None
        self.seen.append((self.service.decays, self.service.cleanups))
        return SleepReport(scanned=4, merged=1, sources=2)


class BacklogSleep:
    """A sleep cycle with a backlog: each bounded run says what it left, then nothing."""

    def __init__(self, lefts: list[int]) -> None:
        self.lefts = lefts
        self.calls = 0

    async def bounded(self, reach: Reach) -> SleepReport:
        self.calls += 1
        return SleepReport(scanned=10, left=self.lefts.pop(0) if self.lefts else 0)


async def _until(condition, timeout_s: float = 5.0) -> None:  # type: ignore[no-untyped-def]
    deadline = asyncio.get_running_loop().time() + timeout_s
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "condition not met in time"
        await asyncio.sleep(0.01)


async def test_the_worker_runs_decay_then_cleanup_soon_after_start(pg_pool: asyncpg.Pool) -> None:
    service = RecordingMaintenance()
    leader = PostgresLeaderLockAdapter(pg_pool, TEST_LOCK_KEY)
    async with DecayWorker(service, leader, interval_s=3600, first_run_delay_s=0.05) as worker:
        await _until(lambda: worker.runs == 1)
    assert (service.decays, service.cleanups) == (1, 1)
    assert worker.last_run is not None and worker.last_run.decayed == 3
    assert worker.last_run.cleaned == 1


async def test_the_sleep_cycle_runs_after_decay_and_cleanup_and_its_report_is_kept(
    pg_pool: asyncpg.Pool,
) -> None:
    service = RecordingMaintenance()
    sleep = RecordingSleep(service)
    worker = DecayWorker(service, PostgresLeaderLockAdapter(pg_pool, TEST_LOCK_KEY), sleep=sleep)
    run = await worker.run_once()
    assert sleep.seen == [(1, 1)]
    assert run is not None and run.slept == SleepReport(scanned=4, merged=1, sources=2)
    without = await DecayWorker(
        service, PostgresLeaderLockAdapter(pg_pool, TEST_LOCK_KEY)).run_once()
    assert without is not None and without.slept is None and len(sleep.seen) == 1


async def test_a_sleep_cycle_with_memories_left_goes_on_soon_without_another_decay(
    pg_pool: asyncpg.Pool,
) -> None:
    service, sleep = RecordingMaintenance(), BacklogSleep([20, 10, 0])
    leader = PostgresLeaderLockAdapter(pg_pool, TEST_LOCK_KEY)
    async with DecayWorker(service, leader, interval_s=3600, first_run_delay_s=0, sleep=sleep,
                           resume_s=0.05) as worker:
        await _until(lambda: sleep.calls == 3)
        await asyncio.sleep(0.2)  # nothing left: the next run is the next interval's
    assert sleep.calls == 3 and worker.resumed == 2 and worker.runs == 1
    assert (service.decays, service.cleanups) == (1, 1)


async def test_cleanup_is_skipped_when_disabled(pg_pool: asyncpg.Pool) -> None:
    service = RecordingMaintenance()
    worker = DecayWorker(service, PostgresLeaderLockAdapter(pg_pool, TEST_LOCK_KEY), cleanup=False)
    run = await worker.run_once()
    assert run is not None and (service.decays, service.cleanups) == (1, 0)


async def test_only_one_of_two_workers_runs_decay_at_a_time(pg_pool: asyncpg.Pool) -> None:
    service = RecordingMaintenance(decay_s=0.3)
    first = DecayWorker(service, PostgresLeaderLockAdapter(pg_pool, TEST_LOCK_KEY))
    second = DecayWorker(service, PostgresLeaderLockAdapter(pg_pool, TEST_LOCK_KEY))
    results = await asyncio.gather(first.run_once(), second.run_once())
    assert sorted(r is None for r in results) == [False, True]
    assert service.max_active == 1 and service.decays == 1
    assert first.skipped + second.skipped == 1
    # The lock is released after the run: the next round can lead again.
    assert await second.run_once() is not None


async def test_the_worker_survives_a_failed_run_and_tries_again(pg_pool: asyncpg.Pool) -> None:
    service = RecordingMaintenance()
    service.fail_next = True
    leader = PostgresLeaderLockAdapter(pg_pool, TEST_LOCK_KEY)
    async with DecayWorker(service, leader, interval_s=0.05, first_run_delay_s=0) as worker:
        await _until(lambda: worker.runs >= 1)
    assert worker.failures == 1 and service.decays >= 1


async def test_stopping_cancels_a_run_in_progress_and_releases_the_lock(
    pg_pool: asyncpg.Pool,
) -> None:
    service = RecordingMaintenance(decay_s=30)
    leader = PostgresLeaderLockAdapter(pg_pool, TEST_LOCK_KEY)
    worker = DecayWorker(service, leader, interval_s=3600, first_run_delay_s=0)
    worker.start()
    await _until(lambda: service.active == 1)
    await asyncio.wait_for(worker.stop(), timeout=2)
    assert not worker.running and service.active == 0
    async with leader.hold() as leading:
        assert leading is True
