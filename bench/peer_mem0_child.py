"""mem0's side of bench/peer_mem0.py; runs in mem0's own virtualenv, never in memlane's.

    <mem0-venv>/bin/python bench/peer_mem0_child.py --conninfo C --rows DIR --queries FILE

Loads the rows bench/peer_mem0.py exported (the context user's texts and stored vectors)
into mem0's pgvector collection once, with mem0's own schema and HNSW index (m 16,
ef_construction 64, as memlane's), then times mem0's raw-mode `search(top_k=10)` with
memlane's ONNX adapter behind mem0's embedder interface. Connections use memlane's HNSW
search settings (ef_search 100, iterative scan). Prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
import uuid
from pathlib import Path
from typing import Any

os.environ["MEM0_TELEMETRY"] = "false"
os.environ.setdefault("OPENAI_API_KEY", "unused")  # the LLM is never called in raw mode

import numpy as np
from mem0 import Memory
from mem0.embeddings.base import EmbeddingBase
from psycopg_pool import ConnectionPool

from memlane.adapters.embedding.catalog import MINILM, ONNX_MODELS
from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter

COLLECTION = "mem0_peer"
USER = "peer-user"


class MemlaneEmbedder(EmbeddingBase):
    """mem0's embedder interface on memlane's ONNX adapter (the rows' own int8 model, no
    torch)."""

    def __init__(self, model: str = MINILM.name) -> None:
        super().__init__()
        self._loop = asyncio.new_event_loop()
        self._adapter = OnnxEmbeddingAdapter(ONNX_MODELS[model])

    def embed(self, text: Any, memory_action: Any = None) -> list[float]:
        kind = "query" if memory_action == "search" else "document"
        (vector,) = self._loop.run_until_complete(self._adapter.embed([text], kind=kind))
        return [float(x) for x in vector]


def load(pool: ConnectionPool, rows: Path) -> int:
    texts = json.loads((rows / "texts.json").read_text())
    vectors = np.load(rows / "vectors.npy")
    with pool.connection() as connection:
        have = connection.execute(f"SELECT count(*) FROM {COLLECTION}").fetchone()[0]
        if have == len(texts):
            return have
        connection.execute(f"TRUNCATE {COLLECTION}")
        # Built after the load, as memlane's benchmark does (row by row into an HNSW index
        # took minutes); the same DDL as mem0's create_col.
        connection.execute(f"DROP INDEX IF EXISTS {COLLECTION}_hnsw_idx")
        connection.execute(f"DROP INDEX IF EXISTS {COLLECTION}_text_lemmatized_idx")
        with connection.cursor() as cursor, cursor.copy(
            f"COPY {COLLECTION} (id, vector, payload) FROM STDIN"
        ) as copy:
            for text, vector in zip(texts, vectors, strict=True):
                payload = {"data": text, "user_id": USER, "text_lemmatized": text.lower(),
                           "hash": uuid.uuid4().hex, "created_at": "2026-01-01T00:00:00+00:00"}
                vector_text = "[" + ",".join(f"{x:.7f}" for x in vector) + "]"
                copy.write_row((str(uuid.uuid4()), vector_text, json.dumps(payload)))
        connection.execute("SET maintenance_work_mem = '1GB'")
        connection.execute(f"CREATE INDEX {COLLECTION}_hnsw_idx ON {COLLECTION} "
                           "USING hnsw (vector vector_cosine_ops)")
        connection.execute(f"CREATE INDEX {COLLECTION}_text_lemmatized_idx ON {COLLECTION} "
                           "USING gin(to_tsvector('simple', payload->>'text_lemmatized'))")
        connection.execute(f"VACUUM ANALYZE {COLLECTION}")
    return len(texts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conninfo", required=True)
    parser.add_argument("--rows", type=Path, required=True)
    parser.add_argument("--queries", type=Path, required=True)
    args = parser.parse_args()
    pool = ConnectionPool(args.conninfo, min_size=1, max_size=4, kwargs={
        "options": "-c hnsw.ef_search=100 -c hnsw.iterative_scan=relaxed_order",
        "autocommit": True}, open=True)
    memory = Memory.from_config({
        "vector_store": {"provider": "pgvector", "config": {
            "collection_name": COLLECTION, "embedding_model_dims": 384,
            "connection_pool": pool, "hnsw": True}},
        "embedder": {"provider": "openai", "config": {"embedding_dims": 384}},
    })
    # Rows exported before the model was written down are MiniLM's.
    named = args.rows / "model.txt"
    memory.embedding_model = MemlaneEmbedder(
        named.read_text().strip() if named.exists() else MINILM.name)
    memory.vector_store.create_col()  # mem0 creates it lazily, on its first insert
    loaded = load(pool, args.rows)
    questions = json.loads(args.queries.read_text())
    for question in questions[:20]:
        memory.search(question, filters={"user_id": USER}, top_k=10)
    latencies, returned = [], 0
    for question in questions:
        started = time.perf_counter()
        found = memory.search(question, filters={"user_id": USER}, top_k=10)
        latencies.append((time.perf_counter() - started) * 1000)
        returned += len(found["results"])
    print(json.dumps({"memories": loaded, "queries": len(questions),
                      "p50_ms": round(statistics.median(latencies), 2),
                      "avg_returned": round(returned / len(questions), 2)}))


if __name__ == "__main__":
    main()
