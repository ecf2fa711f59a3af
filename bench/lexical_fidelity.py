"""Lexical fidelity: the postings search against exact BM25, for the scale user.

    .venv/bin/python bench/lexical_fidelity.py --data-dir DIR [--configs 100:1000:500,100:4000:500]

DIR is a data dir `bench/scale.py` loaded (its 100k-memory user). Each config is
FIRST:CAP:CHECKS: the postings of each query term the search reads first, the most it reads,
and the most memories it scores exactly per pass (LexicalReading: migration 0250's safe stop
reads four times deeper per pass until nothing unread can change its top ten).
For each it prints p50 and p90 latency of a top-50 search and the share of the exact BM25 top
ten (every posting read in one pass) it puts in its own top ten, over 100 of the benchmark's
questions.
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
from memlane.adapters.postgres.memories.lexical_reading import LexicalReading
from memlane.adapters.postgres.memories.search import PostgresCandidateSearchAdapter
from memlane.container import open_memlane
from memlane.domain.model import Owner
from memlane.service.security.sealing import Sealer
from memlane.settings import DatabaseSettings, MemorySettings, Settings, WorkerSettings

EVERY_POSTING = 10**9
# Every posting in one pass: BM25 over the whole index, by another route than the safe stop.
EXACT = LexicalReading(first_depth=EVERY_POSTING, postings_per_term=EVERY_POSTING)


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
        exact = PostgresCandidateSearchAdapter(pool, lexical_reading=EXACT)
        truth = [{c.id for c in await exact.lexical_candidates(owner, t, 10)} for t in terms]
        for first, cap, checks in args.configs:
            port = PostgresCandidateSearchAdapter(pool, lexical_reading=LexicalReading(
                first_depth=first, postings_per_term=cap, checks=checks))
            for query_terms in terms[:10]:  # warm: the exact pass read the whole index
                await port.lexical_candidates(owner, query_terms, 50)
            latencies, shares = [], []
            for query_terms, best in zip(terms, truth, strict=True):
                started = time.perf_counter()
                found = await port.lexical_candidates(owner, query_terms, 50)
                latencies.append((time.perf_counter() - started) * 1000)
                shares.append(len({c.id for c in found[:10]} & best) / max(1, len(best)))
            result[f"{first}:{cap}:{checks}"] = {
                "p50_ms": round(statistics.median(latencies), 2),
                "p90_ms": round(statistics.quantiles(latencies, n=10)[-1], 2),
                "exact_top10_share": round(statistics.mean(shares), 3),
            }
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument(
        "--configs", default="100:1000:500,100:4000:500,1000:1000:500",
        type=lambda text: [tuple(int(n) for n in c.split(":")) for c in text.split(",")],
        help="FIRST:CAP:CHECKS triples, comma-separated")
    parser.add_argument("--json", action="store_true", help="JSON only (the default output)")
    print(json.dumps(asyncio.run(run(parser.parse_args()))))


if __name__ == "__main__":
    main()
