"""In-process context figures of bench/scale.py on the service as the composition root builds
it (graph expansion and LOD rendering as configured), with the CPU each request costs, and
the model's own figures measured in the same run: the CPU floor's embedding, query latency
at concurrency 1 and 8, documents/s."""

from __future__ import annotations

import asyncio
import random
import statistics
import time
from pathlib import Path
from typing import Any

from bench import scale_data as data
from bench.scale_cpu import CpuMeter
from bench.scale_stats import percentile

from memlane.adapters.embedding.catalog import ONNX_MODELS
from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.container import Memlane
from memlane.domain.model import Owner

WARM = 20
PROMPT_QUERIES = 200
MODEL_DOCUMENTS = 512


async def measure(memlane: Memlane, pgdata: Path, owner: Owner, queries: int) -> dict[str, Any]:
    """p50/p99 of retrieve_context, p50 of prompt_context (what POST /v1/context does), and
    the CPU per retrieve_context of this process and PostgreSQL's."""
    rng = random.Random(7)
    texts = [data.query_text(rng.randrange(data.topic_count()), rng) for _ in range(queries)]
    service = memlane.service
    for text in texts[:WARM]:
        await service.retrieve_context(owner, text)
        await service.prompt_context(owner, text)
    latencies = []
    meter = CpuMeter(pgdata)
    meter.start()
    for text in texts:
        started = time.perf_counter()
        await service.retrieve_context(owner, text)
        latencies.append((time.perf_counter() - started) * 1000)
    meter.stop()
    prompts = []
    for text in texts[:PROMPT_QUERIES]:
        started = time.perf_counter()
        await service.prompt_context(owner, text)
        prompts.append((time.perf_counter() - started) * 1000)
    return {
        "queries": queries,
        "p50_ms": round(percentile(latencies, 50), 2),
        "p95_ms": round(percentile(latencies, 95), 2),
        "p99_ms": round(percentile(latencies, 99), 2),
        "prompt_p50_ms": round(percentile(prompts, 50), 2),
        "cpu_ms_per_request": round(meter.total_ms / queries, 2),
        "service_cpu_ms_per_request": round(meter.service_ms / queries, 2),
        "postgres_cpu_ms_per_request": round(meter.postgres_ms / queries, 2),
    }


async def model_figures(memlane: Memlane, queries: int) -> dict[str, Any]:
    """The embedder alone, while nothing else runs: a query's CPU on one thread (the CPU
    floor's embedding), query latency at concurrency 1 and 8 on the configured adapter, and
    its documents/s as bench/embedding.py measures them."""
    rng = random.Random(29)
    questions = [data.query_text(rng.randrange(data.topic_count()), rng) for _ in range(queries)]
    texts = [data.memory_text(rng.randrange(data.topic_count()), rng)
             for _ in range(MODEL_DOCUMENTS)]
    # The served model's, on one thread: the adapter's own default is MiniLM.
    narrow = OnnxEmbeddingAdapter(ONNX_MODELS[memlane.embedder.model], query_threads=1)
    try:
        await narrow.warm_up()
        for question in questions[:WARM]:
            await narrow.embed([question], kind="query")
        started = time.process_time()
        for question in questions:
            await narrow.embed([question], kind="query")
        single_cpu_ms = (time.process_time() - started) * 1000 / len(questions)
    finally:
        await narrow.close()
    embedder = memlane.embedder
    latency: dict[str, float] = {}
    for concurrency in (1, 8):
        times: list[float] = []
        for at in range(0, len(questions), concurrency):
            times += await asyncio.gather(*(_timed(embedder, q)
                                            for q in questions[at:at + concurrency]))
        latency[f"c{concurrency}"] = round(statistics.median(times), 2)
    started = time.perf_counter()
    await embedder.embed(texts)
    return {"embed_cpu_single_thread_ms": round(single_cpu_ms, 2),
            "query_embed_p50_ms": latency,
            "embedder_docs_per_s": round(len(texts) / (time.perf_counter() - started), 1)}


async def _timed(embedder: Any, question: str) -> float:
    started = time.perf_counter()
    await embedder.embed([question], kind="query")
    return (time.perf_counter() - started) * 1000
