"""Where a write's time goes: the pinned ingest workload in-process, timed step by step.

    .venv/bin/python bench/ingest_steps.py --data-dir DIR [--batches N] [--model NAME] [--json]

Runs on a data dir `bench/scale.py --data-dir DIR` built (the context user's memories,
edges and entities), through the service as the composition root builds it. Batches of 32
memories alternate between `remember_many` and conversation segments (a user message and
the reply after it), ~60-token texts, as `bench/scale.py`'s HTTP ingest sends them. Each
step's wall time per batch is summed over its calls; linking, entities and facts run side
by side after the commit, so their times overlap. Process CPU per memory is given too, and
the model's own documents/s on the same texts (batches of 32, as `bench/embedding.py`
measures it), right before, so the ratio comes from one sitting. What the run wrote is
deleted at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import scale_data as data
from bench.scale_cpu import CpuMeter, cpu_ms, postgres_pids
from bench.scale_serve import FORGET_INGESTED, INGEST_BATCH

from memlane.container import open_memlane
from memlane.domain.memories.segments import Message, Role
from memlane.domain.model import NewMemory, Owner
from memlane.domain.similarity import DEFAULT_EMBEDDING_MODEL
from memlane.settings import (
    DatabaseSettings,
    EmbeddingSettings,
    MemorySettings,
    Settings,
    WorkerSettings,
)

TENANT, USER = "bench", "context-user"
WARMUP_BATCHES = 4


class PostgresCpu:
    """PostgreSQL's CPU so far (its processes', read at each step's ends; 10 ms ticks)."""

    pgdata: Path | None = None
    pids: list[int] = []

    @classmethod
    def now_ms(cls) -> float:
        if cls.pgdata is None:
            return 0.0
        return sum(cpu_ms(pid) for pid in cls.pids)

    @classmethod
    def refresh(cls) -> None:
        if cls.pgdata is not None:
            cls.pids = postgres_pids(cls.pgdata)


def _timed(spent: dict[str, float], name: str,
           call: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """Wall ms of each call into `name`, PostgreSQL's CPU meanwhile into `pg_<name>` (the
    steps after the commit run side by side: each one's PostgreSQL CPU counts all three)."""
    async def timed(*args: Any, **kwargs: Any) -> Any:
        started, pg = time.perf_counter(), PostgresCpu.now_ms()
        try:
            return await call(*args, **kwargs)
        finally:
            spent[name] += (time.perf_counter() - started) * 1000
            spent[f"pg_{name}"] += PostgresCpu.now_ms() - pg
    return timed


def _instrument(service: Any, spent: dict[str, float]) -> None:
    """Timers around the write path's steps (the instances' own attributes)."""
    writer = service._writer
    drafting, after = writer._drafting, writer._after
    drafting.vectors.embed = _timed(spent, "embed", drafting.vectors.embed)
    drafting.affects = _timed(spent, "affect", drafting.affects)
    drafting.reembed = _timed(spent, "reembed", drafting.reembed)
    writer._probe = _timed(spent, "probe", writer._probe)
    writer._judge = _timed(spent, "judge", writer._judge)
    writer._mark = _timed(spent, "mark", writer._mark)
    after.link = _timed(spent, "graph_link", after.link)
    after.name = _timed(spent, "entities", after.name)
    after.read_facts = _timed(spent, "facts", after.read_facts)
    store = writer._store
    opened = store.write_session

    def session(owner: Owner) -> Any:
        manager = opened(owner)
        enter, leave = manager.__aenter__, manager.__aexit__

        class Timed:
            async def __aenter__(self) -> Any:
                started = time.perf_counter()
                inner = await enter()
                spent["session_open"] += (time.perf_counter() - started) * 1000
                inner.insert_many = _timed(spent, "insert", inner.insert_many)
                return inner

            async def __aexit__(self, *exc: Any) -> Any:
                started = time.perf_counter()
                try:
                    return await leave(*exc)
                finally:
                    spent["commit"] += (time.perf_counter() - started) * 1000
        return Timed()

    store.write_session = session


def _texts(rng: random.Random, n: int) -> list[str]:
    return [data.memory_text(rng.randrange(data.topic_count()), rng) + f" (note {n}-{i})"
            for i in range(INGEST_BATCH)]


async def _write(service: Any, owner: Owner, n: int, rng: random.Random) -> None:
    texts = _texts(rng, n)
    if n % 2 == 0:
        await service.remember_many(owner, [NewMemory(t) for t in texts])
        return
    messages = []
    for text in texts:
        words = text.split()
        half = len(words) // 2
        messages += [Message(Role.USER, " ".join(words[:half])),
                     Message(Role.ASSISTANT, " ".join(words[half:]))]
    await service.add_messages(owner, f"bench-{n}", messages)


async def _model_docs_per_s(memlane: Any, seconds: float) -> tuple[float, float]:
    """The embedder alone on the same texts, in batches of 32: documents/s, CPU ms each."""
    rng = random.Random(5)
    batches = [_texts(rng, n) for n in range(8)]
    await memlane.embedder.embed(batches[0], kind="document")
    done, started, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - started < seconds:
        await memlane.embedder.embed(batches[done // INGEST_BATCH % 8], kind="document")
        done += INGEST_BATCH
    return done / (time.perf_counter() - started), (time.process_time() - cpu) * 1000 / done


async def run(args: argparse.Namespace) -> dict[str, Any]:
    settings = Settings(
        database=DatabaseSettings(data_dir=args.data_dir / "pgdata"),
        memory=MemorySettings(encryption_key_path=args.data_dir / "memory_encryption.key",
                              embedding=EmbeddingSettings(model=args.model)),
        worker=WorkerSettings(enabled=False),
    )
    owner = Owner(TENANT, USER)
    async with open_memlane(settings) as memlane:
        model, model_cpu_ms = await _model_docs_per_s(memlane, args.model_seconds)
        service = memlane.service
        rng = random.Random(13)
        since = datetime.now(UTC)
        for n in range(WARMUP_BATCHES):
            await _write(service, owner, 1000 + n, rng)
        spent: dict[str, float] = defaultdict(float)
        _instrument(service, spent)
        per_batch: dict[str, list[float]] = defaultdict(list)
        totals = []
        PostgresCpu.pgdata = args.data_dir / "pgdata"
        meter = CpuMeter(args.data_dir / "pgdata")
        meter.start()
        started = time.perf_counter()
        for n in range(args.batches):
            spent.clear()
            PostgresCpu.refresh()
            begun = time.perf_counter()
            await _write(service, owner, n, rng)
            totals.append((time.perf_counter() - begun) * 1000)
            for name, ms in spent.items():
                per_batch[name].append(ms)
        wall_s = time.perf_counter() - started
        meter.stop()
        await memlane.database.pool.execute(FORGET_INGESTED, TENANT, USER, since, timeout=600)
    written = args.batches * INGEST_BATCH
    return {
        "model": args.model,
        "batches": args.batches,
        "batch_ms_median": round(statistics.median(totals), 1),
        "steps_ms_median": {k: round(statistics.median(v), 1)
                            for k, v in sorted(per_batch.items()) if not k.startswith("pg_")},
        "steps_ms_mean": {k: round(statistics.mean(v), 1)
                          for k, v in sorted(per_batch.items()) if not k.startswith("pg_")},
        "postgres_cpu_ms_mean": {k.removeprefix("pg_"): round(statistics.mean(v), 1)
                                 for k, v in sorted(per_batch.items()) if k.startswith("pg_")},
        "ingest_per_s_serial": round(written / wall_s, 1),
        # CPU of this process (the model's threads included) and of PostgreSQL's.
        "service_cpu_ms_per_memory": round(meter.service_ms / written, 2),
        "postgres_cpu_ms_per_memory": round(meter.postgres_ms / written, 2),
        "embedder_docs_per_s": round(model, 1),
        "embedder_cpu_ms_per_doc": round(model_cpu_ms, 2),
        "ratio_serial": round(written / wall_s / model, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--model", default=DEFAULT_EMBEDDING_MODEL)
    parser.add_argument("--batches", type=int, default=20)
    parser.add_argument("--model-seconds", type=float, default=10.0)
    parser.add_argument("--json", action="store_true", help="JSON only (the default output)")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args)), indent=None if args.json else 2))


if __name__ == "__main__":
    main()
