"""Lexical fidelity: the capped postings search against exact BM25, for the scale user.

    .venv/bin/python bench/lexical_fidelity.py --data-dir DIR [--caps 500,1000,2000] [--json]

DIR is a data dir `bench/scale.py` loaded (its 100k-memory user). For each cap (postings read
per query term) prints p50 latency and the share of the exact BM25 top ten (every posting
read) that the capped search puts in its own top ten, over 100 of the benchmark's questions.
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import scale_data as data
from bench.scale import CONTEXT_USER, TENANT

from memlane.adapters.encryption.keyfile import load_or_create_key
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.memories.search import PostgresCandidateSearchAdapter
from memlane.container import open_memlane
from memlane.domain.model import Owner
from memlane.service.security.sealing import Sealer
from memlane.settings import DatabaseSettings, MemorySettings, Settings, WorkerSettings

EVERY_POSTING = 10**9


async def run(args: argparse.Namespace) -> dict[str, Any]:
    settings = Settings(
        database=DatabaseSettings(data_dir=args.data_dir / "pgdata"),
        memory=MemorySettings(encryption_key_path=args.data_dir / "memory_encryption.key"),
        worker=WorkerSettings(enabled=False),
    )
    key = load_or_create_key(settings.memory.encryption_key_path)
    sealer = Sealer(XChaChaEncryptionAdapter(key), SnowballKeywordAdapter(), 0.1)
    rng = random.Random(7)
    questions = [data.query_text(rng.randrange(data.topic_count()), rng) for _ in range(100)]
    terms = [sealer.index_terms(TENANT, q) for q in questions]
    owner = Owner(TENANT, CONTEXT_USER)
    result: dict[str, Any] = {"questions": len(questions)}
    async with open_memlane(settings, load_model=False) as memlane:
        pool = memlane.database.pool
        exact = PostgresCandidateSearchAdapter(pool, lexical_postings_per_term=EVERY_POSTING)
        truth = [{c.id for c in await exact.lexical_candidates(owner, t, 10)} for t in terms]
        warm = PostgresCandidateSearchAdapter(pool, lexical_postings_per_term=max(args.caps))
        for query_terms in terms:  # the exact pass read far more than any capped one needs
            await warm.lexical_candidates(owner, query_terms, 50)
        for cap in args.caps:
            port = PostgresCandidateSearchAdapter(pool, lexical_postings_per_term=cap)
            latencies, shares = [], []
            for query_terms, best in zip(terms, truth, strict=True):
                started = time.perf_counter()
                found = await port.lexical_candidates(owner, query_terms, 50)
                latencies.append((time.perf_counter() - started) * 1000)
                shares.append(len({c.id for c in found[:10]} & best) / max(1, len(best)))
            result[str(cap)] = {
                "p50_ms": round(statistics.median(latencies[10:]), 2),
                "exact_top10_share": round(statistics.mean(shares), 3),
            }
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--caps", default="500,1000,2000",
                        type=lambda text: [int(c) for c in text.split(",")])
    parser.add_argument("--json", action="store_true", help="JSON only (the default output)")
    print(json.dumps(asyncio.run(run(parser.parse_args()))))


if __name__ == "__main__":
    main()
