"""Scale benchmark: context latency and CPU at N memories, HTTP, ingest, the cost curve,
decay, cleanup and the sleep cycle over M rows, RSS, the targets of docs/performance.md.

    .venv/bin/python bench/scale.py [--memories N] [--decay-memories M] [--json]

Runs on the embedded defaults (private PostgreSQL + pgvector, ONNX embedder, XChaCha
encryption on, graph expansion as configured) in a scratch data dir, and prints one JSON
object. The pinned data set: the context user's N memories around topic centres, 20 edges
per memory, the entities the recogniser finds in them; M rows of 1,000 other users.
See docs/performance.md and bench/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import (
    scale_context,
    scale_curve,
    scale_data as data,
    scale_detail,
    scale_graph,
    scale_maintenance,
    scale_serve,
    scale_targets,
)
from bench.scale_cpu import CpuMeter
from bench.scale_stats import Stopwatch, TimedEmbedder, TimedMemories, covered_ms, percentile

from memlane.adapters.embedding.catalog import ONNX_MODELS
from memlane.adapters.encryption.keyfile import load_or_create_key
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.composition.services import memory_service as build_memory_service
from memlane.container import Memlane, open_memlane
from memlane.domain.model import Owner
from memlane.domain.similarity import DEFAULT_EMBEDDING_MODEL
from memlane.ports.storage import MemoryPorts
from memlane.service.security.sealing import Sealer
from memlane.settings import (
    DatabaseSettings,
    EmbeddingSettings,
    MemorySettings,
    RecallSettings,
    Settings,
    WorkerSettings,
)

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


async def load_context_user(
    memlane: Memlane, sealer: Sealer, space: data.TopicSpace, count: int, seed: int,
) -> None:
    owner = Owner(TENANT, CONTEXT_USER)
    async with memlane.database.pool.acquire() as connection:
        have = await connection.fetchval(
            "SELECT count(*) FROM memory_heat WHERE tenant = $1 AND user_id = $2",
            owner.tenant, owner.user_id,
        )
        indexed = await connection.fetchval(
            "SELECT count(*) FROM pg_indexes WHERE indexname = 'memories_embedding_hnsw_idx'"
        )
        models = await connection.fetchval(
            "SELECT array_agg(DISTINCT embedding_model) FROM memories"
            " WHERE tenant = $1 AND embedding_model IS NOT NULL", owner.tenant,
        )
        if have == count and indexed and models == [space.model]:
            _log(f"reusing {count} memories of {owner.user_id}")
            return
        for table in ("memory_heat", "memories"):
            await connection.execute(
                f"DELETE FROM {table} WHERE tenant = $1", TENANT, timeout=LONG_S
            )
    rng = random.Random(seed)
    topics = np.asarray([rng.randrange(len(space.centres)) for _ in range(count)])
    vectors = space.draw(topics, seed)
    started = time.perf_counter()
    rows = data.sealed_rows(
        sealer, owner, [data.memory_text(int(t), rng) for t in topics], vectors, rng,
        data.unit_now(), space.model,
    )
    _log(f"sealed {count} rows in {time.perf_counter() - started:.1f}s; loading")
    async with memlane.database.pool.acquire() as connection:
        await data.stage(connection, rows)
        await data.move_stage(connection, rebuild_hnsw=True)
    _log(f"loaded {count} memories in {time.perf_counter() - started:.1f}s")


async def measure_split(memlane: Memlane, settings: Settings, queries: int) -> dict[str, Any]:
    """Where a query's time goes: a service built here with timed ports (no graph
    expansion), the embedding, the database's wait and busy time, the bare HNSW floor."""
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
    meter = CpuMeter(Path(settings.database.data_dir))
    async with memlane.database.pool.acquire() as connection:
        for vector in vectors[:20]:
            await connection.fetch(FLOOR_SQL, TENANT, CONTEXT_USER, vector, floor_k)
        meter.start()
        for vector in vectors:
            started = time.perf_counter()
            await connection.fetch(FLOOR_SQL, TENANT, CONTEXT_USER, vector, floor_k)
            floors.append((time.perf_counter() - started) * 1000)
        meter.stop()
    db_p50, floor_p50 = percentile(dbs, 50), percentile(floors, 50)
    return {
        "split_p50_ms": round(percentile(totals, 50), 2),
        "avg_returned": round(found / queries, 2),
        "embed_p50_ms": round(percentile(embeds, 50), 2),
        "db_p50_ms": round(db_p50, 2),
        "rest_p50_ms": round(percentile(
            [t - e - d for t, e, d in zip(totals, embeds, dbs, strict=True)], 50), 2),
        "floor_k": floor_k,
        "floor_p50_ms": round(floor_p50, 2),
        "floor_cpu_ms": round(meter.postgres_ms / len(vectors), 3),
        # The database's busy time (every call's own duration) over the floor: a faster
        # embedding cannot make it worse, nor a slower one hide it.
        "ratio": round(percentile(busy, 50) / floor_p50, 2),
        "db_busy_p50_ms": round(percentile(busy, 50), 2),
        "wait_ratio": round(db_p50 / floor_p50, 2),
        "db_calls_p50_ms": {k: round(percentile(v, 50), 2) for k, v in sorted(calls.items())},
    }


async def _count(memlane: Memlane, owner: Owner) -> int:
    return int(await memlane.database.pool.fetchval(
        "SELECT count(*) FROM memory_heat WHERE tenant = $1 AND user_id = $2",
        owner.tenant, owner.user_id,
    ))


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


async def run(args: argparse.Namespace) -> dict[str, Any]:
    data_dir: Path = args.data_dir
    settings = Settings(
        database=DatabaseSettings(data_dir=data_dir / "pgdata"),
        memory=MemorySettings(encryption_key_path=data_dir / "memory_encryption.key",
                              embedding=EmbeddingSettings(model=args.model),
                              recall=RecallSettings(skip_stages=tuple(args.skip_stages))),
        worker=WorkerSettings(enabled=False),
    )
    _log(f"data dir {data_dir}")
    result: dict[str, Any] = {"cpu": scale_targets.cpu(), "model": args.model,
                              "skip_stages": args.skip_stages}
    owner = Owner(TENANT, CONTEXT_USER)
    async with open_memlane(settings) as memlane:
        sealer = Sealer(
            XChaChaEncryptionAdapter(load_or_create_key(settings.memory.encryption_key_path)),
            SnowballKeywordAdapter(), settings.memory.policy().base_rate,
        )
        space = await data.topic_space(memlane.embedder)
        result["synthetic_cosines"] = space.realism
        _log(f"synthetic vectors against embedded ones: {space.realism}")
        await load_context_user(memlane, sealer, space, args.memories, seed=1)
        await load_other_users(memlane, sealer, args.decay_memories)
        if not args.no_graph_data:
            result["data"] = await scale_graph.load_graph(memlane, settings, owner)
        if not args.skip_context:
            result.update(model := await scale_context.model_figures(
                memlane, min(args.queries, 300)))
            _log(f"model: {model}")
            split = await measure_split(memlane, settings, args.queries)
            context = await scale_context.measure(
                memlane, Path(settings.database.data_dir), owner, args.queries)
            context["memories"] = await _count(memlane, owner)
            context["cpu_floor_ms"] = round(
                result["embed_cpu_single_thread_ms"] + split["floor_cpu_ms"], 2)
            result["context"] = {**context, **split}
            _log(f"context: {result['context']}")
        if args.curve:
            result["curve"] = await scale_curve.measure(
                memlane, sealer, TENANT, CONTEXT_USER, args.curve, space, args.queries)
            result["disk"] = await scale_curve.disk(memlane)
        if args.graph:
            result["graph"] = await scale_graph.measure(memlane, settings, owner, args.queries)
        if args.detail:
            result["detail"] = await scale_detail.measure(memlane, settings, owner, args.queries)
        if not args.skip_http or args.ingest_only:
            result.update(await scale_serve.measure(
                memlane, settings, TENANT, CONTEXT_USER, seconds=args.http_seconds,
                warmup_s=args.warmup_seconds, step_s=args.step_seconds,
                ingest_s=args.ingest_seconds, load=not args.ingest_only))
        if not args.skip_maintenance:
            result.update(await scale_maintenance.measure(memlane, owner))
    result["cpu"]["load_average_end"] = round(os.getloadavg()[0], 2)
    result["targets"] = scale_targets.judge(result, args.peer_mem0_p50_ms)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=DEFAULT_EMBEDDING_MODEL, choices=sorted(ONNX_MODELS),
                        help="the embedding model served (and drawn around: TopicSpace)")
    parser.add_argument("--skip-stages", type=lambda v: [s for s in v.split(",") if s],
                        default=[], help="retrieval stages left out (memory.recall.skip_stages)")
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--decay-memories", type=int, default=1_000_000)
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--http-seconds", type=float, default=20.0,
                        help="per open-loop rate (20, 50, 100 req/s)")
    parser.add_argument("--warmup-seconds", type=float, default=5.0)
    parser.add_argument("--step-seconds", type=float, default=10.0,
                        help="per probe of the highest rate held, and the closed-loop runs")
    parser.add_argument("--ingest-seconds", type=float, default=15.0)
    parser.add_argument("--curve", type=lambda v: [int(n) for n in v.split(",") if n],
                        default=[10_000, 100_000],
                        help="memories of one user per curve point (e.g. 10000,100000,1000000)")
    parser.add_argument("--no-graph-data", action="store_true",
                        help="no edges or entities for the context user")
    parser.add_argument("--peer-mem0-p50-ms", type=float, default=None,
                        help="mem0's search p50 from bench/peer_mem0.py in the same sitting")
    parser.add_argument("--data-dir", default=None, help="keep and reuse data here")
    parser.add_argument("--json", action="store_true", help="JSON only (the default output)")
    parser.add_argument("--skip-context", action="store_true")
    parser.add_argument("--skip-http", action="store_true")
    parser.add_argument("--ingest-only", action="store_true",
                        help="of the HTTP figures only the pinned ingest and the server's RSS")
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
