"""The sleep cycle's figures of bench/scale.py, as the worker runs it (`bounded`: at most
graph.sleep_budget memories a run): the first cycle over every row (no watermark yet) as the
runs it takes, then a day's cycle over ~1 % of the rows changed (some of them near-duplicates
of the context user's), then the same cycle again (idempotence: it must find nothing).

Alone, on a data dir bench/scale.py loaded (JSON on stdout):
    .venv/bin/python bench/scale_sleep.py --data-dir /tmp/scale [--first-pass-runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from dataclasses import replace
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
# Near-duplicates that escaped the write-time merge: of the context user's first $3 current
# embedded memories (by id; an earlier run's merges are history now), each odd one takes its
# successor's vector, as an edit that made it say the same would. The merge embeds the
# merged text again, so this counts the merge's cost.
TOUCH_DUPLICATES = """
WITH picked AS (
    SELECT m.id, m.embedding, row_number() OVER (ORDER BY m.id) AS n
    FROM memories AS m
    JOIN memory_heat AS h ON h.tenant = m.tenant AND h.user_id = m.user_id AND h.id = m.id
    WHERE m.tenant = $1 AND m.user_id = $2 AND m.embedding IS NOT NULL
      AND h.superseded_by IS NULL AND NOT h.cluster
    ORDER BY m.id LIMIT $3
)
UPDATE memories AS m SET embedding = b.embedding, updated_at = clock_timestamp()
FROM picked AS a JOIN picked AS b ON b.n = a.n + 1
WHERE a.n % 2 = 1 AND m.tenant = $1 AND m.user_id = $2 AND m.id = a.id
"""
DUPLICATED_ROWS = 40  # 20 pairs
LONG_S = 600.0  # a statement over a million rows on a loaded machine


def _log(message: str) -> None:
    print(f"[scale] {message}", file=sys.stderr, flush=True)


# The rest of a first pass stopped at its runs' limit, marked done: every owner's watermark at
# the newest memory, as a finished pass leaves it (the day's cycle then reads only the day's).
SKIP_REST = """
DELETE FROM memory_sleep_watermarks;
INSERT INTO memory_sleep_watermarks (tenant, user_id, through_at, through_id)
SELECT DISTINCT ON (tenant, user_id) tenant, user_id, updated_at, id
FROM memories ORDER BY tenant, user_id, updated_at DESC, id DESC
"""


async def measure(
    memlane: Memlane, owner: Owner, first_runs: int | None = None
) -> dict[str, Any]:
    pool = memlane.database.pool
    cycle = memlane.service.sleep
    rows = int(await pool.fetchval("SELECT count(*) FROM memories"))
    edges = int(await pool.fetchval("SELECT count(*) FROM memory_edges"))
    first, first_s, runs = await _until_done(cycle, first_runs)
    _log(f"sleep cycle, first (every row): {first.as_dict()} in {first_s:.1f}s, "
         f"{len(runs)} runs, the longest {max(runs):.1f}s")
    if first.left:
        await pool.execute(SKIP_REST, timeout=LONG_S)
        _log(f"first pass stopped after {len(runs)} runs; the {first.left} left marked done")
    async with pool.acquire() as connection:
        await connection.execute(TOUCH_DAY, timeout=LONG_S)
        await connection.execute(
            TOUCH_DUPLICATES, owner.tenant, owner.user_id, DUPLICATED_ROWS, timeout=LONG_S)
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
            "first_pass_complete": not first.left,
            "budget": memlane.settings.graph.sleep_budget,
            "again": again.as_dict(), "again_s": round(again_s, 2),
            # What the day's merges wrote is read again (scanned), and nothing more happens.
            "idempotent": again.merged == again.woven == again.pruned == 0,
        },
    }


async def _until_done(
    cycle: Any, limit: int | None = None
) -> tuple[SleepReport, float, list[float]]:
    """Bounded runs until nothing is left (or `limit` runs), as the worker resumes a cycle:
    the report summed (`left` from the last run), the time, each run's time."""
    total, runs, left = SleepReport(), [], 0
    while limit is None or len(runs) < limit:
        report, seconds = await _timed(cycle.bounded(None))
        total, runs, left = total.plus(replace(report, left=0)), [*runs, seconds], report.left
        _log(f"sleep cycle run {len(runs)}: {report.scanned} read, {left} left, {seconds:.1f}s")
        if not left:
            break
    return replace(total, left=left), sum(runs), runs


async def _timed(call: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    result = await call
    return result, time.perf_counter() - started


async def _alone(data_dir: Path, first_runs: int | None) -> dict[str, Any]:
    settings = Settings(
        database=DatabaseSettings(data_dir=data_dir / "pgdata"),
        memory=MemorySettings(encryption_key_path=data_dir / "memory_encryption.key"),
        worker=WorkerSettings(enabled=False),
    )
    async with open_memlane(settings) as memlane:
        result = {"cpu": scale_targets.cpu(), **await measure(
            memlane, Owner("bench", "context-user"), first_runs)}
    result["cpu"]["load_average_end"] = round(os.getloadavg()[0], 2)
    result["target_consolidate_s_le_10"] = result["consolidate_s"] <= 10
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", required=True, type=Path)
    parser.add_argument("--first-pass-runs", type=int, default=None,
                        help="stop the first pass after this many runs and mark the rest done "
                        "(synthetic rows bypassed the write-time merge: dense with merges)")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(_alone(args.data_dir.resolve(), args.first_pass_runs))))
