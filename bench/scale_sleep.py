"""The sleep cycle's figures of bench/scale.py, as the worker runs it (`bounded`: at most
graph.sleep_budget memories a run): the first cycle over every row (no watermark yet) as the
runs it takes, then a day's cycle over ~1 % of the rows changed (some of them near-duplicates
of the context user's), then the same cycle again (idempotence: it must find nothing).

Alone, on a data dir bench/scale.py loaded (JSON on stdout):
    .venv/bin/python bench/scale_sleep.py --data-dir /tmp/scale
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import scale_targets

from memlane.container import Memlane, open_memlane
from memlane.domain.memories import SleepReport
from memlane.domain.model import Owner
from memlane.settings import (
    DatabaseSettings,
    MemorySettings,
    Settings,
    WorkerSettings,
)

# A day's changes: rows whose id hashes into 1 of 100 buckets get a new updated_at, as an
# edit or a new write would give them; the cycle reads those and no other.
TOUCH_DAY = """
UPDATE memories SET updated_at = clock_timestamp()
WHERE abs(hashtext(id::text)) % 100 = 0
"""
# Near-duplicates that escaped the write-time merge: of the context user's first $3 embedded
# memories (by id), each odd one takes its successor's vector, as an edit that made it say
# the same would. The merge embeds the merged text again, so this counts the merge's cost.
TOUCH_DUPLICATES = """
WITH picked AS (
    SELECT id, embedding, row_number() OVER (ORDER BY id) AS n
    FROM memories
    WHERE tenant = $1 AND user_id = $2 AND embedding IS NOT NULL
    ORDER BY id LIMIT $3
)
UPDATE memories AS m SET embedding = b.embedding, updated_at = clock_timestamp()
FROM picked AS a JOIN picked AS b ON b.n = a.n + 1
WHERE a.n % 2 = 1 AND m.tenant = $1 AND m.user_id = $2 AND m.id = a.id
"""
DUPLICATED_ROWS = 40  # 20 pairs


def _log(message: str) -> None:
    print(f"[scale] {message}", file=sys.stderr, flush=True)


async def measure(memlane: Memlane, owner: Owner) -> dict[str, Any]:
    pool = memlane.database.pool
    cycle = memlane.service.sleep
    rows = int(await pool.fetchval("SELECT count(*) FROM memories"))
    edges = int(await pool.fetchval("SELECT count(*) FROM memory_edges"))
    first, first_s, runs = await _until_done(cycle)
    _log(f"sleep cycle, first (every row): {first.as_dict()} in {first_s:.1f}s, "
         f"{len(runs)} runs, the longest {max(runs):.1f}s")
    async with pool.acquire() as connection:
        await connection.execute(TOUCH_DAY)
        await connection.execute(
            TOUCH_DUPLICATES, owner.tenant, owner.user_id, DUPLICATED_ROWS)
    changed = await cycle.pending(None)
    day, day_s, day_runs = await _until_done(cycle)
    _log(f"sleep cycle, a day ({changed} changed): {day.as_dict()} in {day_s:.1f}s, "
         f"{len(day_runs)} runs")
    again, again_s = await _timed(cycle.bounded(None))
    _log(f"sleep cycle, again: {again.as_dict()} in {again_s:.1f}s")
    return {
        # The worker's run, the target's unit: the longest of the day's bounded runs.
        "consolidate_s": round(max(day_runs), 2),
        "consolidation": {
            "rows": rows, "edges": edges, "changed": changed,
            "cycle": day.as_dict(), "cycle_s": round(day_s, 2), "cycle_runs": len(day_runs),
            "first_pass": first.as_dict(), "first_pass_s": round(first_s, 2),
            "first_pass_runs": len(runs), "first_pass_longest_run_s": round(max(runs), 2),
            "budget": memlane.settings.graph.sleep_budget,
            "again": again.as_dict(), "again_s": round(again_s, 2),
            # What the day's merges wrote is read again (scanned), and nothing more happens.
            "idempotent": again.merged == again.woven == again.pruned == 0,
        },
    }


async def _until_done(cycle: Any) -> tuple[SleepReport, float, list[float]]:
    """Bounded runs until nothing is left, as the worker resumes a cycle: the report summed,
    the time, each run's time."""
    total, runs = SleepReport(), []
    while True:
        report, seconds = await _timed(cycle.bounded(None))
        total, runs = total.plus(report), [*runs, seconds]
        _log(f"sleep cycle run {len(runs)}: {report.scanned} read, {report.left} left, "
             f"{seconds:.1f}s")
        if not report.left:
            return total, sum(runs), runs


async def _timed(call: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    result = await call
    return result, time.perf_counter() - started


async def _alone(data_dir: Path) -> dict[str, Any]:
    settings = Settings(
        database=DatabaseSettings(data_dir=data_dir / "pgdata"),
        memory=MemorySettings(encryption_key_path=data_dir / "memory_encryption.key"),
        worker=WorkerSettings(enabled=False),
    )
    async with open_memlane(settings) as memlane:
        result = {"cpu": scale_targets.cpu(), **await measure(
            memlane, Owner("bench", "context-user"))}
    result["cpu"]["load_average_end"] = round(os.getloadavg()[0], 2)
    result["target_consolidate_s_le_10"] = result["consolidate_s"] <= 10
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", required=True, type=Path)
    print(json.dumps(asyncio.run(_alone(parser.parse_args().data_dir.resolve()))))
