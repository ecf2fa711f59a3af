"""Maintenance figures of bench/scale.py: decay and cleanup over every row, with this
process's resident set sampled meanwhile (set-based SQL should leave it flat), then the sleep
cycle (scale_sleep.py)."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from typing import Any

from bench import scale_sleep

from memlane.container import Memlane
from memlane.domain.model import Owner


def _log(message: str) -> None:
    print(f"[scale] {message}", file=sys.stderr, flush=True)


# Runs of the sleep cycle's first pass timed before the rest is marked done: enough for a
# million sparse rows (25,000 a run); the bulk-loaded user's rows are dense in near-duplicates
# a real write path would have merged, and would take hundreds of runs to no purpose.
FIRST_PASS_RUNS = 60


async def measure(memlane: Memlane, owner: Owner) -> dict[str, Any]:
    pool = memlane.database.pool
    rows = int(await pool.fetchval("SELECT count(*) FROM memory_heat"))
    sampler = RssSampler()
    async with sampler:
        started = time.perf_counter()
        changed = await memlane.service.decay()
        decay_s = time.perf_counter() - started
        _log(f"decay: {changed} of {rows} rows changed in {decay_s:.1f}s")
        started = time.perf_counter()
        deleted = await memlane.service.cleanup()
        cleanup_s = time.perf_counter() - started
        _log(f"cleanup: {deleted} rows deleted in {cleanup_s:.1f}s")
        slept = await scale_sleep.measure(memlane, owner, FIRST_PASS_RUNS)
    return {"decay_s": round(decay_s, 2), "cleanup_s": round(cleanup_s, 2),
            "decay_memories": rows, "decayed": changed, "cleaned_up": deleted,
            "maintenance_rss_growth_mb": round(sampler.growth_mb, 1), **slept}


class RssSampler:
    """This process's resident set every 100 ms while maintenance runs: set-based SQL should
    leave it flat (growth = peak sample minus the first)."""

    def __init__(self) -> None:
        self._samples: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> RssSampler:
        self._task = asyncio.get_running_loop().create_task(self._run())
        await asyncio.sleep(0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._samples.append(_rss_mb())

    async def _run(self) -> None:
        while True:
            self._samples.append(_rss_mb())
            await asyncio.sleep(0.1)

    @property
    def growth_mb(self) -> float:
        return max(self._samples) - self._samples[0] if self._samples else 0.0


def _rss_mb() -> float:
    with open("/proc/self/status") as status:  # procfs: never blocks
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


