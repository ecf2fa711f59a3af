"""The cost curve of bench/scale.py: context p50 for one user holding N memories, with the
quality held at each point (lexical fidelity against exact BM25, dense recall@10 against an
exact scan), and disk per million memories.

Each size other than the context user's is a user of its own (`curve-<N>`), loaded once and
reused by later runs; their rows go into the existing HNSW index (no rebuild)."""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

import numpy as np
from bench import scale_data as data

from memlane.adapters.postgres.memories.lexical_reading import LexicalReading
from memlane.adapters.postgres.memories.search import PostgresCandidateSearchAdapter
from memlane.container import Memlane
from memlane.domain.model import Owner
from memlane.service.security.sealing import Sealer

EVERY_POSTING = 10**9
QUALITY_QUERIES = 30
DENSE = """
SELECT m.id FROM memories AS m
WHERE m.tenant = $1 AND m.user_id = $2 AND m.embedding IS NOT NULL
ORDER BY m.embedding <=> $3 LIMIT 10
"""
SIZES = """
SELECT pg_total_relation_size('memories') AS memories,
       pg_total_relation_size('memory_heat') AS heat,
       pg_total_relation_size('memory_postings') AS postings,
       pg_relation_size('memories_embedding_hnsw_idx') AS hnsw,
       (SELECT count(*) FROM memory_heat) AS rows
"""


def _log(message: str) -> None:
    print(f"[scale-curve] {message}", file=sys.stderr, flush=True)


async def load_user(memlane: Memlane, sealer: Sealer, owner: Owner, count: int,
                    space: data.TopicSpace) -> None:
    pool = memlane.database.pool
    have = int(await pool.fetchval(
        "SELECT count(*) FROM memory_heat WHERE tenant = $1 AND user_id = $2",
        owner.tenant, owner.user_id))
    models = await pool.fetchval(
        "SELECT array_agg(DISTINCT embedding_model) FROM memories"
        " WHERE tenant = $1 AND user_id = $2", owner.tenant, owner.user_id)
    if have == count and models == [space.model]:
        return
    async with pool.acquire() as connection:
        for table in ("memory_heat", "memories"):
            await connection.execute(f"DELETE FROM {table} WHERE tenant = $1 AND user_id = $2",
                                     owner.tenant, owner.user_id, timeout=data.LONG_S)
    rng = random.Random(count)
    topics = np.asarray([rng.randrange(len(space.centres)) for _ in range(count)])
    vectors = space.draw(topics, count)
    started = time.perf_counter()
    rows = data.sealed_rows(sealer, owner, [data.memory_text(int(t), rng) for t in topics],
                            vectors, rng, data.unit_now(), space.model)
    async with pool.acquire() as connection:
        await data.stage(connection, rows)
        await data.move_stage(connection, rebuild_hnsw=False)
    _log(f"loaded {count} memories of {owner.user_id} in {time.perf_counter() - started:.1f}s")


async def point(memlane: Memlane, sealer: Sealer, owner: Owner, queries: int) -> dict[str, Any]:
    """Context p50 (the composition root's service) and the quality at this size."""
    rng = random.Random(23)
    texts = [data.query_text(rng.randrange(data.topic_count()), rng) for _ in range(queries)]
    for text in texts[:20]:
        await memlane.service.retrieve_context(owner, text)
    latencies = []
    for text in texts[20:]:
        started = time.perf_counter()
        await memlane.service.retrieve_context(owner, text)
        latencies.append((time.perf_counter() - started) * 1000)
    return {"memories": await _count(memlane, owner), "users": 1,
            "p50_ms": round(statistics.median(latencies), 2),
            **await quality(memlane, sealer, owner, texts[:QUALITY_QUERIES])}


async def quality(memlane: Memlane, sealer: Sealer, owner: Owner, texts: list[str]
                  ) -> dict[str, float]:
    pool = memlane.database.pool
    exact = PostgresCandidateSearchAdapter(pool, lexical_reading=LexicalReading(
        first_depth=EVERY_POSTING, postings_per_term=EVERY_POSTING))
    capped = PostgresCandidateSearchAdapter(pool)
    lexical, dense = [], []
    vectors = await memlane.embedder.embed(texts, kind="query")
    for text, vector in zip(texts, vectors, strict=True):
        terms = sealer.index_terms(owner.tenant, text)
        best = {c.id for c in await exact.lexical_candidates(owner, terms, 10)}
        found = {c.id for c in (await capped.lexical_candidates(owner, terms, 50))[:10]}
        lexical.append(len(found & best) / max(1, len(best)))
        key = (owner.tenant, owner.user_id, vector)
        approximate = {r["id"] for r in await pool.fetch(DENSE, *key)}
        async with pool.acquire() as connection, connection.transaction():
            # An exact scan: no index may answer the ORDER BY.
            await connection.execute("SET LOCAL enable_indexscan = off")
            await connection.execute("SET LOCAL enable_bitmapscan = off")
            truth = {r["id"] for r in await connection.fetch(DENSE, *key)}
        dense.append(len(approximate & truth) / max(1, len(truth)))
    return {"lexical_fidelity": round(statistics.mean(lexical), 3),
            "dense_recall_at_10": round(statistics.mean(dense), 3)}


async def _count(memlane: Memlane, owner: Owner) -> int:
    return int(await memlane.database.pool.fetchval(
        "SELECT count(*) FROM memory_heat WHERE tenant = $1 AND user_id = $2",
        owner.tenant, owner.user_id))


async def disk(memlane: Memlane) -> dict[str, float]:
    """Bytes on disk per million rows (memories, their heat, the postings, the HNSW index)."""
    sizes = await memlane.database.pool.fetchrow(SIZES)
    assert sizes is not None
    per_million = 1e6 / max(1, sizes["rows"])
    return {f"{name}_gb_per_million": round(sizes[name] * per_million / 2**30, 2)
            for name in ("memories", "heat", "postings", "hnsw")}


async def measure(memlane: Memlane, sealer: Sealer, tenant: str, context_user: str,
                  sizes: list[int], space: data.TopicSpace, queries: int) -> list[dict[str, Any]]:
    curve = []
    context_count = await _count(memlane, Owner(tenant, context_user))
    for size in sizes:
        owner = Owner(tenant, context_user if size == context_count else f"curve-{size}")
        await load_user(memlane, sealer, owner, size, space)
        curve.append(await point(memlane, sealer, owner, queries))
        _log(f"curve: {curve[-1]}")
    return curve
