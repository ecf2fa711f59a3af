"""Scale benchmark: context latency at N memories, HTTP, ingest, decay/cleanup over M rows, RSS.

    .venv/bin/python bench/scale.py [--memories N] [--decay-memories M] [--json]

Runs on the embedded defaults (private PostgreSQL + pgvector, ONNX embedder, XChaCha
encryption on) in a scratch data dir, and prints one JSON object. See docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import scale_data as data, scale_detail, scale_graph
from bench.scale_http import Server, drive
from bench.scale_stats import Stopwatch, TimedEmbedder, TimedMemories, covered_ms, percentile

from memlane.adapters.encryption.keyfile import load_or_create_key
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.composition.services import memory_service as build_memory_service
from memlane.container import Memlane, open_memlane
from memlane.domain.model import Owner
from memlane.domain.security.auth import Scope
from memlane.ports.storage import MemoryPorts
from memlane.service.security.sealing import Sealer
from memlane.settings import DatabaseSettings, MemorySettings, Settings, WorkerSettings

TENANT = "bench"
CONTEXT_USER = "context-user"
DECAY_TENANT = "bench-decay"
DECAY_USERS = 1000
FLOOR_SQL = """
SELECT m.id, m.embedding <=> $3 AS distance FROM memories AS m
WHERE m.tenant = $1 AND m.user_id = $2 AND m.embedding IS NOT NULL
ORDER BY m.embedding <=> $3 LIMIT $4
"""
LONG_S = data.LONG_S


def _log(message: str) -> None:
    print(f"[scale] {message}", file=sys.stderr, flush=True)


async def _topic_centres(memlane: Memlane) -> np.ndarray:
    texts = [data.topic_text(t) for t in range(data.topic_count())]
    return np.asarray(await memlane.embedder.embed(texts, kind="document"), dtype=np.float32)


async def load_context_user(memlane: Memlane, sealer: Sealer, count: int, seed: int) -> None:
    owner = Owner(TENANT, CONTEXT_USER)
    async with memlane.database.pool.acquire() as connection:
        have = await connection.fetchval(
            "SELECT count(*) FROM memory_heat WHERE tenant = $1 AND user_id = $2",
            owner.tenant, owner.user_id,
        )
        indexed = await connection.fetchval(
            "SELECT count(*) FROM pg_indexes WHERE indexname = 'memories_embedding_hnsw_idx'"
        )
        if have == count and indexed:
            _log(f"reusing {count} memories of {owner.user_id}")
            return
        for table in ("memory_heat", "memories"):
            await connection.execute(
                f"DELETE FROM {table} WHERE tenant = $1", TENANT, timeout=LONG_S
            )
    rng = random.Random(seed)
    centres = await _topic_centres(memlane)
    topics = np.asarray([rng.randrange(len(centres)) for _ in range(count)])
    vectors = data.noisy_unit(centres, topics, seed)
    started = time.perf_counter()
    rows = data.sealed_rows(
        sealer, owner, [data.memory_text(int(t), rng) for t in topics], vectors, rng,
        data.unit_now(),
    )
    _log(f"sealed {count} rows in {time.perf_counter() - started:.1f}s; loading")
    async with memlane.database.pool.acquire() as connection:
        await data.stage(connection, rows)
        await data.move_stage(connection, rebuild_hnsw=True)
    _log(f"loaded {count} memories in {time.perf_counter() - started:.1f}s")


async def measure_context(memlane: Memlane, settings: Settings, queries: int) -> dict[str, Any]:
    embed_watch, db_watch = Stopwatch(), Stopwatch()
    service = build_memory_service(
        memories=MemoryPorts(
            TimedMemories(memlane.memories.store, db_watch),  # type: ignore[arg-type]
            TimedMemories(memlane.memories.search, db_watch),  # type: ignore[arg-type]
            TimedMemories(memlane.memories.maintenance, db_watch),  # type: ignore[arg-type]
        ),
        embedder=TimedEmbedder(memlane.embedder, embed_watch),  # type: ignore[arg-type]
        encryption=XChaChaEncryptionAdapter(
            load_or_create_key(settings.memory.encryption_key_path)
        ),
        keywords=SnowballKeywordAdapter(),
        policy=settings.memory.policy(),
    )
    owner = Owner(TENANT, CONTEXT_USER)
    rng = random.Random(7)
    texts = [data.query_text(rng.randrange(data.topic_count()), rng) for _ in range(queries)]
    for text in texts[:20]:  # warm plans, caches and the model
        await service.retrieve_context(owner, text)
    totals, embeds, dbs, busy, found = [], [], [], [], 0
    calls: dict[str, list[float]] = {}
    for text in texts:
        embed_watch.reset()
        db_watch.reset()
        started = time.perf_counter()
        found += len(await service.retrieve_context(owner, text))
        totals.append((time.perf_counter() - started) * 1000)
        # A split of the latency: the embedding, the time spent waiting on the database
        # alone (a read overlapping the embedding, like the lexical search, counts only
        # where it outlasts it), and the rest. `db_busy` sums every call's own duration.
        embeds.append(covered_ms(embed_watch.intervals))
        dbs.append(covered_ms(db_watch.intervals, minus=embed_watch.intervals))
        busy.append(db_watch.busy_ms)
        for label, ms in db_watch.by_label_ms().items():
            calls.setdefault(label, []).append(ms)
    # The retriever's dense search asks for its candidate pool: the floor asks for as many.
    policy = settings.memory.policy()
    floor_k = max(policy.recall.candidate_pool, 4 * policy.rag_limit)
    vectors = await memlane.embedder.embed(texts, kind="query")
    floors = []
    async with memlane.database.pool.acquire() as connection:
        for vector in vectors[:20]:
            await connection.fetch(FLOOR_SQL, TENANT, CONTEXT_USER, vector, floor_k)
        for vector in vectors:
            started = time.perf_counter()
            await connection.fetch(FLOOR_SQL, TENANT, CONTEXT_USER, vector, floor_k)
            floors.append((time.perf_counter() - started) * 1000)
    db_p50, floor_p50 = percentile(dbs, 50), percentile(floors, 50)
    return {
        "memories": await _count(memlane, owner),
        "queries": queries,
        "avg_returned": round(found / queries, 2),
        "p50_ms": round(percentile(totals, 50), 2),
        "p95_ms": round(percentile(totals, 95), 2),
        "p99_ms": round(percentile(totals, 99), 2),
        "embed_p50_ms": round(percentile(embeds, 50), 2),
        "db_p50_ms": round(db_p50, 2),
        "rest_p50_ms": round(percentile(
            [t - e - d for t, e, d in zip(totals, embeds, dbs, strict=True)], 50), 2),
        "floor_k": floor_k,
        "floor_p50_ms": round(floor_p50, 2),
        "ratio": round(db_p50 / floor_p50, 2),
        "db_busy_p50_ms": round(percentile(busy, 50), 2),
        "busy_ratio": round(percentile(busy, 50) / floor_p50, 2),
        "db_calls_p50_ms": {k: round(percentile(v, 50), 2) for k, v in sorted(calls.items())},
    }


async def _count(memlane: Memlane, owner: Owner) -> int:
    return int(await memlane.database.pool.fetchval(
        "SELECT count(*) FROM memory_heat WHERE tenant = $1 AND user_id = $2",
        owner.tenant, owner.user_id,
    ))


async def measure_http(
    memlane: Memlane, settings: Settings, duration_s: float, ingest_s: float
) -> dict[str, Any]:
    created = await memlane.keys.create(TENANT, [Scope.READ, Scope.WRITE], name="bench")
    ids = [r["id"] for r in await memlane.database.pool.fetch(
        "SELECT id FROM memory_heat WHERE tenant = $1 AND user_id = $2 LIMIT 5000",
        TENANT, CONTEXT_USER,
    )]
    rng = random.Random(11)
    queries = [data.query_text(rng.randrange(data.topic_count()), rng) for _ in range(2000)]
    server = Server(settings.database.data_dir, settings.memory.encryption_key_path)
    await server.start()
    try:
        def context(client: Any, n: int) -> Any:
            body = {"query": queries[n % len(queries)], "user_id": CONTEXT_USER}
            return client.post("/v1/context", json=body)

        def get(client: Any, n: int) -> Any:
            return client.get(f"/v1/memories/{ids[n % len(ids)]}",
                              params={"user_id": CONTEXT_USER})

        ctx = await drive(server.url, created.token, context, concurrency=8, duration_s=duration_s)
        _log(f"http context: {ctx}")
        got = await drive(server.url, created.token, get, concurrency=8, duration_s=duration_s)
        _log(f"http get: {got}")
        ingest = await measure_ingest(server.url, created.token, ingest_s)
        _log(f"ingest: {ingest}")
        return {
            "http": {
                "context_rps": ctx["rps"], "context_p50_ms": ctx["p50_ms"],
                "context_p99_ms": ctx["p99_ms"], "get_rps": got["rps"],
                "get_p50_ms": got["p50_ms"], "get_p99_ms": got["p99_ms"],
            },
            "ingest_per_s": ingest,
            "rss_mb": round(server.peak_rss_mb(), 1),
        }
    finally:
        server.stop()


INGEST_BATCH = 64
INGEST_CONCURRENCY = 2


async def measure_ingest(url: str, token: str, duration_s: float) -> float:
    """Memories/s through POST /v1/memories/batch (real ONNX embedding, dedup, encryption),
    two writers for two users of 64-memory batches."""
    rng = random.Random(13)
    run = f"{time.time_ns()}"

    def batch(client: Any, n: int) -> Any:
        items = [{"content": data.memory_text(rng.randrange(data.topic_count()), rng)
                  + f" (note {n}-{i})", "tags": ["ingest"]} for i in range(INGEST_BATCH)]
        body = {"user_id": f"ingest-{run}-{n % INGEST_CONCURRENCY}", "memories": items}
        return client.post("/v1/memories/batch", json=body, timeout=120)

    result = await drive(url, token, batch, concurrency=INGEST_CONCURRENCY, duration_s=duration_s)
    return round(result["rps"] * INGEST_BATCH, 1)


async def load_other_users(memlane: Memlane, sealer: Sealer, total: int) -> None:
    """Other users' memories until the table holds `total` rows: the context user is one big
    user among many (as in production, and it matters to the planner), and these rows are
    what decay and cleanup run over."""
    pool = memlane.database.pool
    # Topped up, not reloaded: a rerun replaces only what the last cleanup deleted.
    existing = int(await pool.fetchval("SELECT count(*) FROM memory_heat"))
    extra = max(0, total - existing)
    if extra:
        started = time.perf_counter()
        rng = random.Random(17)
        template = data.sealed_rows(
            sealer, Owner(DECAY_TENANT, "template"),
            [data.memory_text(rng.randrange(data.topic_count()), rng) for _ in range(2000)],
            None, rng, data.unit_now(),
        )
        async with pool.acquire() as connection:
            await data.load_decay_rows(connection, template, extra, DECAY_USERS)
            await connection.execute("VACUUM ANALYZE memory_heat", timeout=LONG_S)
            await connection.execute("VACUUM ANALYZE memories", timeout=LONG_S)
        _log(f"loaded {extra} decay rows in {time.perf_counter() - started:.1f}s")


async def measure_maintenance(memlane: Memlane) -> dict[str, Any]:
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
    return {"decay_s": round(decay_s, 2), "cleanup_s": round(cleanup_s, 2),
            "decay_memories": rows, "decayed": changed, "cleaned_up": deleted,
            "maintenance_rss_growth_mb": round(sampler.growth_mb, 1)}


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


async def run(args: argparse.Namespace) -> dict[str, Any]:
    data_dir: Path = args.data_dir
    settings = Settings(
        database=DatabaseSettings(data_dir=data_dir / "pgdata"),
        memory=MemorySettings(encryption_key_path=data_dir / "memory_encryption.key"),
        worker=WorkerSettings(enabled=False),
    )
    _log(f"data dir {data_dir}")
    async with open_memlane(settings) as memlane:
        sealer = Sealer(
            XChaChaEncryptionAdapter(load_or_create_key(settings.memory.encryption_key_path)),
            SnowballKeywordAdapter(), settings.memory.policy().base_rate,
        )
        await load_context_user(memlane, sealer, args.memories, seed=1)
        await load_other_users(memlane, sealer, args.decay_memories)
        result: dict[str, Any] = {}
        if not args.skip_context:
            result["context"] = await measure_context(memlane, settings, args.queries)
            _log(f"context: {result['context']}")
        if args.graph:
            result["graph"] = await scale_graph.measure(
                memlane, settings, Owner(TENANT, CONTEXT_USER), args.queries
            )
        if args.detail:
            result["detail"] = await scale_detail.measure(
                memlane, settings, Owner(TENANT, CONTEXT_USER), args.queries
            )
        if not args.skip_http:
            result.update(await measure_http(memlane, settings, args.http_seconds,
                                             args.ingest_seconds))
        if not args.skip_maintenance:
            result.update(await measure_maintenance(memlane))
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--decay-memories", type=int, default=1_000_000)
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--http-seconds", type=float, default=12.0)
    parser.add_argument("--ingest-seconds", type=float, default=15.0)
    parser.add_argument("--data-dir", default=None, help="keep and reuse data here")
    parser.add_argument("--json", action="store_true", help="JSON only (the default output)")
    parser.add_argument("--skip-context", action="store_true")
    parser.add_argument("--skip-http", action="store_true")
    parser.add_argument("--skip-maintenance", action="store_true")
    parser.add_argument("--graph", action="store_true",
                        help="graph figures: context with/without the graph, write cost")
    parser.add_argument("--detail", action="store_true",
                        help="levels of detail: tier, lexicon and gate cost per write, the "
                        "tiers backfill, the prompt block by level of detail vs whole lines")
    args = parser.parse_args()
    # A scratch dir unless one is given (kept, so a rerun reuses the loaded memories).
    args.data_dir = Path(args.data_dir or tempfile.mkdtemp(prefix="memlane-scale-")).resolve()
    result = asyncio.run(run(args))
    print(json.dumps(result, indent=None if args.json else 2))


if __name__ == "__main__":
    main()
