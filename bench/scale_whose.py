"""What the whose stage costs a context: p50 with it on and off, on the scale benchmark's user.

    .venv/bin/python bench/scale_whose.py --data-dir DIR [--weight 0.8] [--pairs 2]
        [--queries 300]

DIR is a data dir `bench/scale.py` loaded (its 100k-memory user). The stage reads only for a
question about the user or a relative (`person_asked`), so the benchmark's questions are
split into those ("Remind me about our trip…") and the rest. Each pair of runs opens the
service once with `memory.recall.whose_weight` at `--weight` and once at 0 (the stage left
out), each pair in the other order, so drift in the machine's load and the warmer caches of
a later run fall on both. Per run it prints one JSON line: the p50 of `retrieve_context` for
each kind of question and for all, and `person_minus_other_ms`, the difference of the two
kinds' p50 within the run (what the stage adds, free of drift between runs, if the two kinds
cost the same without it). Compare only runs of the same invocation.
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

from memlane.container import open_memlane
from memlane.domain.facts import person_asked
from memlane.domain.model import Owner
from memlane.settings import (
    DatabaseSettings,
    MemorySettings,
    RecallSettings,
    Settings,
    WorkerSettings,
)

WARM = 30


async def one_run(data_dir: Path, weight: float, questions: list[str]) -> dict[str, Any]:
    settings = Settings(
        database=DatabaseSettings(data_dir=data_dir / "pgdata"),
        memory=MemorySettings(encryption_key_path=data_dir / "memory_encryption.key",
                              recall=RecallSettings(whose_weight=weight)),
        worker=WorkerSettings(enabled=False),
    )
    owner = Owner(TENANT, CONTEXT_USER)
    latencies: dict[bool, list[float]] = {True: [], False: []}
    async with open_memlane(settings) as memlane:
        for question in questions[:WARM]:
            await memlane.service.retrieve_context(owner, question)
        for question in questions:
            started = time.perf_counter()
            await memlane.service.retrieve_context(owner, question)
            asked = person_asked(question).holder is not None
            latencies[asked].append((time.perf_counter() - started) * 1000)
    every = latencies[True] + latencies[False]
    return {
        "whose_weight": weight,
        "about_a_person": len(latencies[True]),
        "about_a_person_p50_ms": _p50(latencies[True]),
        "other_p50_ms": _p50(latencies[False]),
        "all_p50_ms": _p50(every),
        "person_minus_other_ms": round(
            statistics.median(latencies[True]) - statistics.median(latencies[False]), 2)
        if latencies[True] and latencies[False] else None,
    }


def _p50(values: list[float]) -> float | None:
    return round(statistics.median(values), 2) if values else None


async def run(args: argparse.Namespace) -> None:
    rng = random.Random(7)
    questions = [data.query_text(rng.randrange(data.topic_count()), rng)
                 for _ in range(args.queries)]
    for pair in range(args.pairs):
        # Each pair in the other order: a run after another finds the caches warmer.
        for weight in (args.weight, 0.0) if pair % 2 == 0 else (0.0, args.weight):
            print(json.dumps(await one_run(args.data_dir, weight, questions)), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--weight", type=float, default=0.8)
    parser.add_argument("--pairs", type=int, default=2)
    parser.add_argument("--queries", type=int, default=300)
    args = parser.parse_args()
    if not 0 < args.weight < 1 or args.pairs < 1 or args.queries <= WARM:
        parser.error(f"--weight within (0, 1), --pairs at least 1, --queries over {WARM}")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
