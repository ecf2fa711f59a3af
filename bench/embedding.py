"""Embedding benchmark: the ONNX adapter's query latency, throughput and determinism.

    .venv/bin/python bench/embedding.py [--queries 300] [--documents 512] [--json]

Prints one JSON object: `query_p50_ms` (one short question at a time), `documents_per_s`
(memories of the scale benchmark's 100-400 characters, one call), `mean_tokens`,
`batch_vs_single_max_abs` (largest difference between a text's vector embedded in a batch
and alone: 0 means no vector depends on what it is embedded with) and
`cosine_to_source_min` (the int8 build against the packaged model run directly).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import scale_data as data

from memlane.adapters.embedding.catalog import MINILM, load_minilm_tokenizer, packaged_source
from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter


def source_vectors(texts: list[str]) -> np.ndarray:
    """The packaged model run as shipped (dequantised, fp32), one text at a time."""
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


async def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(3)
    documents = [data.memory_text(rng.randrange(data.topic_count()), rng)
                 for _ in range(args.documents)]
    queries = [data.query_text(rng.randrange(data.topic_count()), rng)
               for _ in range(args.queries)]
    adapter = OnnxEmbeddingAdapter()
    try:
        await adapter.warm_up()
        latencies = []
        for query in queries:
            started = time.perf_counter()
            await adapter.embed([query], kind="query")
            latencies.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        batched = np.asarray(await adapter.embed(documents))
        documents_per_s = len(documents) / (time.perf_counter() - started)
        sample = documents[:32]
        alone = np.asarray([(await adapter.embed([text]))[0] for text in sample])
    finally:
        await adapter.close()
    cosines = (alone * source_vectors(sample)).sum(axis=1)
    tokens = [len(e.ids) for e in load_minilm_tokenizer().encode_batch(documents)]
    return {
        "query_p50_ms": round(statistics.median(latencies[20:]), 2),
        "documents_per_s": round(documents_per_s, 1),
        "mean_tokens": round(statistics.mean(tokens), 1),
        "batch_vs_single_max_abs": float(np.abs(batched[:32] - alone).max()),
        "cosine_to_source_min": round(float(cosines.min()), 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--documents", type=int, default=512)
    parser.add_argument("--json", action="store_true", help="JSON only (the default output)")
    print(json.dumps(asyncio.run(run(parser.parse_args()))))


if __name__ == "__main__":
    main()
