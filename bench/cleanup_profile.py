"""Where a cleanup's time goes, on a data dir bench/scale.py loaded, changing nothing: each
step of the delete runs alone inside a transaction that is rolled back.

    .venv/bin/python bench/cleanup_profile.py --data-dir DIR [--json]

Steps: selecting the faded rows; the postings drop (memlane_drop_postings); the
term-statistics update (memlane_apply_keyword_changes); the two DELETEs with every trigger
off; the whole set-based delete with its triggers (sql.CLEANUP_TENANT over every tenant's
owners). Also the number of owners the audited cleanup visits one transaction each.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.scale_targets import cpu

from memlane.adapters.postgres.memories import sql
from memlane.adapters.postgres.memories.rows import decay_params
from memlane.container import open_memlane
from memlane.settings import DatabaseSettings, MemorySettings, Settings, WorkerSettings

DOOMED = f"""
CREATE TEMP TABLE doomed AS
SELECT m.tenant, m.user_id, m.id, m.keywords
FROM memory_heat AS h, {sql.TYPE_DECAY_TABLE}, memories AS m
WHERE d.memory_type = h.memory_type AND NOT h.pinned AND {sql._IMPORTANCE_NOW} <= $8
  AND m.tenant = h.tenant AND m.user_id = h.user_id AND m.id = h.id
"""
STEPS = {
    "drop_postings_s": "SELECT memlane_drop_postings(array_agg(tenant), array_agg(user_id), "
                       "array_agg(id)) FROM doomed",
    "term_statistics_s": "SELECT memlane_apply_keyword_changes(array_agg(tenant), "
                         "array_agg(user_id), array_agg(keywords), array_agg(-1)) FROM doomed",
    "delete_rows_without_triggers_s": (
        "SET LOCAL session_replication_role = replica;"
        "DELETE FROM memory_heat AS h USING doomed AS d WHERE h.tenant = d.tenant "
        "AND h.user_id = d.user_id AND h.id = d.id;"
        "DELETE FROM memories AS m USING doomed AS d WHERE m.tenant = d.tenant "
        "AND m.user_id = d.user_id AND m.id = d.id"),
}


async def run(data_dir: Path) -> dict[str, Any]:
    settings = Settings(
        database=DatabaseSettings(data_dir=data_dir / "pgdata"),
        memory=MemorySettings(encryption_key_path=data_dir / "memory_encryption.key"),
        worker=WorkerSettings(enabled=False),
    )
    policy = settings.memory.policy()
    params = [*decay_params(datetime.now(UTC), policy.base_rate), policy.min_importance]
    out: dict[str, Any] = {"cpu": cpu()}
    async with (open_memlane(settings, load_model=False) as memlane,
                memlane.database.pool.acquire() as connection):
            for name, statement in {"select_faded_s": None, **STEPS,
                                    "set_based_delete_s": "all"}.items():
                transaction = connection.transaction()
                await transaction.start()
                try:
                    started = time.perf_counter()
                    await connection.execute(DOOMED, *params, timeout=3600)
                    selected = time.perf_counter() - started
                    if name == "select_faded_s":
                        out[name] = round(selected, 2)
                        out["faded_rows"] = await connection.fetchval("SELECT count(*) FROM doomed")
                        out["faded_owners"] = await connection.fetchval(
                            "SELECT count(DISTINCT (tenant, user_id)) FROM doomed")
                        continue
                    started = time.perf_counter()
                    if statement == "all":
                        for tenant in await connection.fetch("SELECT DISTINCT tenant FROM doomed"):
                            await connection.fetchval(sql.CLEANUP_TENANT, *params,
                                                      tenant["tenant"], timeout=3600)
                    else:
                        await connection.execute(statement, timeout=3600)
                    out[name] = round(time.perf_counter() - started, 2)
                finally:
                    await transaction.rollback()
                print(f"[cleanup] {name}: {out[name]}", file=sys.stderr, flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--json", action="store_true", help="JSON only (the default output)")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.data_dir.resolve()))))


if __name__ == "__main__":
    main()
