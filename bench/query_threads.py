"""Query embedding on the idle cores: latency at concurrency 1 and 8, ingest beside queries.

    .venv/bin/python bench/query_threads.py [--queries 300] [--documents 512] [--json]

Compares the onnx adapter with `query_threads` 1 (every run on one thread) and the default
(a query arriving while nothing else holds the model runs on a second session with two
intra-op threads). Both adapters live in this process and are measured in alternation, so
load from other processes on the machine falls on both alike. Prints one JSON object:
- `query_p50_ms.c1` / `.c8`: a short question's embedding, one at a time and eight at once;
- `documents_per_s.alone` / `.with_queries`: memories of 100-400 characters in one call,
  alone and while one query every 50 ms is embedded beside them (latency must not be bought
  with throughput under load); `with_queries_query_p50_ms`: those queries' latency;
- `cosine_min`: the lowest cosine between a question's vector from each adapter (dedup at
  0.85 and the semantic edges compare query-time and write-time vectors: ≥ 0.9999);
- `rss_second_session_mb`: resident memory the wide session added.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import scale_data as data
from bench.embedding import cpu, rss_mb

from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter


async def _timed(adapter: OnnxEmbeddingAdapter, question: str) -> float:
    started = time.perf_counter()
    await adapter.embed([question], kind="query")
    return (time.perf_counter() - started) * 1000


async def _latency(
    adapters: dict[str, OnnxEmbeddingAdapter], questions: list[str], concurrency: int
) -> dict[str, float]:
    """Median latency per adapter, the adapters taking turns batch by batch (load from other
    processes falls on both alike)."""
    times: dict[str, list[float]] = {name: [] for name in adapters}
    for at in range(0, len(questions), concurrency):
        for name, adapter in adapters.items():
            times[name] += await asyncio.gather(
                *(_timed(adapter, q) for q in questions[at:at + concurrency]))
    return {name: round(statistics.median(t[20:]), 2) for name, t in times.items()}


async def _ingest(
    adapter: OnnxEmbeddingAdapter, texts: list[str], questions: list[str] | None
) -> tuple[float, float | None]:
    """Documents/s of one call; with `questions`, one is embedded every 50 ms meanwhile."""
    times: list[float] = []

    async def ask() -> None:
        for question in questions or []:
            times.append(await _timed(adapter, question))
            await asyncio.sleep(0.05)

    asker = asyncio.create_task(ask())
    started = time.perf_counter()
    await adapter.embed(texts)
    rate = len(texts) / (time.perf_counter() - started)
    asker.cancel()
    return rate, (statistics.median(times) if times else None)


async def measure(queries: int, documents: int) -> dict[str, Any]:
    rng = random.Random(5)
    texts = [data.memory_text(rng.randrange(data.topic_count()), rng) for _ in range(documents)]
    questions = [data.query_text(rng.randrange(data.topic_count()), rng) for _ in range(queries)]
    threads = min(len(os.sched_getaffinity(0)), 4)
    start = rss_mb()
    narrow = OnnxEmbeddingAdapter(threads=threads, query_threads=1)
    await narrow.warm_up()
    one_session = rss_mb() - start
    wide = OnnxEmbeddingAdapter(threads=threads)
    await wide.warm_up()
    # The wide adapter holds a twin of the narrow one's session, and the wide one: less the twin.
    rss_second = rss_mb() - start - 2 * one_session
    out: dict[str, Any] = {"query_p50_ms": {}, "documents_per_s": {},
                           "with_queries_query_p50_ms": {}}
    try:
        for adapter in (narrow, wide):
            await adapter.embed(texts[:32])  # warm both sessions' kernels
        adapters = {"1": narrow, "2": wide}
        for concurrency in (1, 8):
            for name, ms in (await _latency(adapters, questions, concurrency)).items():
                out["query_p50_ms"].setdefault(name, {})[f"c{concurrency}"] = ms
        for _ in range(2):  # twice in turn; the better of each (the least disturbed)
            for name, adapter in adapters.items():
                alone, _ = await _ingest(adapter, texts, None)
                busy, query_ms = await _ingest(adapter, texts, questions)
                rates = out["documents_per_s"].setdefault(name, {"alone": 0, "with_queries": 0})
                rates["alone"] = max(rates["alone"], round(alone, 1))
                rates["with_queries"] = max(rates["with_queries"], round(busy, 1))
                out["with_queries_query_p50_ms"][name] = round(query_ms or 0.0, 2)
        a = np.asarray([v for q in questions[:100] for v in await narrow.embed([q], kind="query")])
        b = np.asarray([v for q in questions[:100] for v in await wide.embed([q], kind="query")])
    finally:
        await narrow.close()
        await wide.close()
    out["cosine_min"] = round(float((a * b).sum(axis=1).min()), 6)
    out["rss_second_session_mb"] = round(rss_second, 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--documents", type=int, default=512)
    parser.add_argument("--json", action="store_true", help="JSON only (the default output)")
    args = parser.parse_args()
    result = asyncio.run(measure(args.queries, args.documents))
    print(json.dumps({"cpu": cpu(), "load_average": os.getloadavg()[0], **result}))


if __name__ == "__main__":
    main()
