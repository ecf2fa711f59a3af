"""The cost of migration 0230 (the stored owner key) on a populated database, as JSON.

    .venv/bin/python bench/owner_key_migration.py --url postgresql://.../postgres \
        [--memories 100000] [--users 1] [--runs 1]

On the server of --url (its maintenance database), builds a template database once, at the
schema before 0230: --memories memories over --users users loaded by bench/scale_data.py's
loader (sealed rows, vectors around topic centres, the HNSW index built), postings and term
statistics filled by their triggers, 20 edges per memory (bench/scale_graph.py's), an audit
event per memory and a fact per five. Each run copies the template and times the pending
migrations from 0230 on, in their one transaction: wall time, the CPU of the server's
processes (when the server runs on this host) and the disk before and after. See
docs/scaling.md, "Migrating". The template, owner_key_template_<memories>_<users>, stays
for the next run: drop it when done.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import numpy as np
from pgvector.asyncpg import register_vector

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import scale_data as data
from bench.scale_graph import EDGES_PER_MEMORY, SYNTHETIC_EDGES
from bench.scale_targets import cpu

from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.migrations import apply_migrations, load_migrations
from memlane.domain.model import Owner
from memlane.domain.policy import MemoryPolicy
from memlane.service.security.sealing import Sealer

FIRST = 230
TENANT = "bench"
EVENTS = """
INSERT INTO audit_events (tenant, user_id, seq, id, subject_kind, subject_id, kind, actor, at,
                          body_digest, prev_hash, hash)
SELECT tenant, user_id, row_number() OVER (PARTITION BY tenant, user_id ORDER BY created_at, id),
       gen_random_uuid(), 'memory', id, 'created', 'key:bench', created_at,
       sha256(id::text::bytea), sha256(content), sha256(summary)
FROM memories
"""
FACTS = """
INSERT INTO facts (tenant, user_id, id, subject, object, subject_index, object_index, relation,
                   fact_type, time_span, confidence, source_memory_id, valid_from, created_at,
                   updated_at)
SELECT tenant, user_id, gen_random_uuid(), summary, content, md5(id::text), md5(content::text),
       'lives_in', 'identity', 'current', 0.9, id, created_at, created_at, created_at
FROM memories WHERE get_byte(uuid_send(id), 15) % 5 = 0
"""
TABLE_SIZES = """
SELECT c.relname, pg_total_relation_size(c.oid) AS bytes FROM pg_class AS c
WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
"""


def _database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def _server_cpu_s(data_dir: str | None) -> float | None:
    """CPU seconds of the postmaster, its live children and the children it has reaped
    (parallel workers that have finished); None when the server is not on this host."""
    if data_dir is None:
        return None
    pid_file = Path(data_dir) / "postmaster.pid"
    if not pid_file.exists():
        return None
    postmaster = pid_file.read_text().split()[0]
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if stat.parent.name == postmaster:
            total += sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
        elif fields[1] == postmaster:
            total += int(fields[11]) + int(fields[12])
    return total / ticks


async def _populate(url: str, memories: int, users: int) -> dict[str, float]:
    connection = await asyncpg.connect(url)
    try:
        await apply_migrations(connection, [m for m in load_migrations() if m.version < FIRST])
        await register_vector(connection)
        embedder = OnnxEmbeddingAdapter()
        await embedder.warm_up()
        space = await data.topic_space(embedder)
        await embedder.close()
        sealer = Sealer(XChaChaEncryptionAdapter(os.urandom(32)), SnowballKeywordAdapter(),
                        MemoryPolicy().base_rate)
        rng, started = random.Random(1), time.perf_counter()
        rows: list[tuple[object, ...]] = []
        for user in range(users):
            count = memories // users
            topics = np.asarray([rng.randrange(len(space.centres)) for _ in range(count)])
            rows += data.sealed_rows(
                sealer, Owner(TENANT, f"user-{user}"),
                [data.memory_text(int(t), rng) for t in topics],
                space.draw(topics, user), rng, data.unit_now(), space.model)
        await data.stage(connection, rows)
        await data.move_stage(connection, rebuild_hnsw=True)
        load_s = time.perf_counter() - started
        for user in range(users):
            await connection.execute(SYNTHETIC_EDGES, TENANT, f"user-{user}", EDGES_PER_MEMORY,
                                     timeout=data.LONG_S)
        await connection.execute(EVENTS, timeout=data.LONG_S)
        await connection.execute(FACTS, timeout=data.LONG_S)
        await connection.execute("VACUUM ANALYZE", timeout=data.LONG_S)
        await connection.execute("CHECKPOINT", timeout=data.LONG_S)
        return {"load_s": round(load_s, 1), "total_s": round(time.perf_counter() - started, 1)}
    finally:
        await connection.close()


async def _complete(url: str, memories: int) -> bool:
    """The template holds the whole build (a build is complete once its facts exist)."""
    connection = await asyncpg.connect(url)
    try:
        if await connection.fetchval("SELECT to_regclass('facts') IS NULL"):
            return False
        held = await connection.fetchval("SELECT count(*) FROM memories")
        return bool(held == memories and await connection.fetchval(
            "SELECT EXISTS (SELECT 1 FROM facts)"))
    finally:
        await connection.close()


async def _sizes(connection: asyncpg.Connection) -> dict[str, int]:
    return {r["relname"]: r["bytes"] for r in await connection.fetch(TABLE_SIZES)}


async def _run(url: str, template: str, data_dir: str | None) -> dict[str, Any]:
    name = f"owner_key_run_{os.getpid()}"
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}" STRATEGY FILE_COPY')
    finally:
        await admin.close()
    try:
        connection = await asyncpg.connect(_database(url, name))
        try:
            before = await _sizes(connection)
            cpu_before, started = _server_cpu_s(data_dir), time.perf_counter()
            applied = await apply_migrations(
                connection, [m for m in load_migrations() if m.version >= FIRST])
            wall = time.perf_counter() - started
            cpu_after = _server_cpu_s(data_dir)
            after = await _sizes(connection)
        finally:
            await connection.close()
    finally:
        admin = await asyncpg.connect(url)
        try:
            await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        finally:
            await admin.close()
    mb = 1024 * 1024
    return {
        "migrations": [m.name for m in applied],
        "seconds": round(wall, 2),
        "server_cpu_s": None if cpu_before is None or cpu_after is None
        else round(cpu_after - cpu_before, 2),
        "disk_before_mb": round(sum(before.values()) / mb, 1),
        "disk_after_mb": round(sum(after.values()) / mb, 1),
        "grown_mb": {t: round((after[t] - before[t]) / mb, 1) for t in sorted(after)
                     if t in before and abs(after[t] - before[t]) >= mb},
    }


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    template = f"owner_key_template_{args.memories}_{args.users}"
    admin = await asyncpg.connect(args.url)
    try:
        exists = await admin.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", template)
        data_dir = await admin.fetchval("SHOW data_directory")
        if exists and not await _complete(_database(args.url, template), args.memories):
            await admin.execute(f'DROP DATABASE "{template}" WITH (FORCE)')  # a build cut short
            exists = None
        if not exists:
            await admin.execute(f'CREATE DATABASE "{template}"')
    finally:
        await admin.close()
    result: dict[str, Any] = {"cpu": cpu(), "memories": args.memories, "users": args.users,
                              "edges_per_memory": EDGES_PER_MEMORY}
    if not exists:
        result["build"] = await _populate(_database(args.url, template), args.memories,
                                          args.users)
    # The server's CPU is read from /proc when its data directory is on this host.
    result["runs"] = [await _run(args.url, template, data_dir) for _ in range(args.runs)]
    best = min(r["seconds"] for r in result["runs"])
    result["seconds_per_100k_memories"] = round(best * 100_000 / args.memories, 2)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="a server's maintenance database")
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--users", type=int, default=1)
    parser.add_argument("--runs", type=int, default=1)
    print(json.dumps(asyncio.run(measure(parser.parse_args())), indent=2))


if __name__ == "__main__":
    main()
