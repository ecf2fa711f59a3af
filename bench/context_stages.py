"""Where a context request's time goes: each retrieval stage's wall time, its event-loop CPU
and its database round trips, on a data dir loaded by bench/scale.py.

    .venv/bin/python bench/context_stages.py --data-dir DIR [--queries 200] [--prompt]
        [--contexts FILE]

The service is the one the composition root builds (graph expansion and levels of detail as
configured). Each stage of the context pipeline (or, with --prompt, of the prompt pipeline)
is wrapped: its wall time, the CPU of the event loop's thread while it ran (decryption,
per-row Python work; the query's embedding runs on other threads), and the asyncpg calls
made by it or by work it started (a lexical or dense search runs beside later stages and
counts where it was started), with their wall time. `--contexts FILE` writes the ids of
every request's contexts, in order, for a before/after comparison. See docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import cProfile
import json
import pstats
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import asyncpg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import scale_data as data
from bench.scale_cpu import CpuMeter
from bench.scale_stats import percentile

from memlane.adapters.postgres.memories.candidates import LEXICAL
from memlane.adapters.postgres.memories.lexical_reading import LexicalReading
from memlane.container import open_memlane
from memlane.domain.model import Owner
from memlane.domain.similarity import DEFAULT_EMBEDDING_MODEL
from memlane.service.retrieval.pipeline import Pipeline, Retrieval, Stage
from memlane.settings import (
    DatabaseSettings,
    EmbeddingSettings,
    MemorySettings,
    Settings,
    WorkerSettings,
)

TENANT, CONTEXT_USER = "bench", "context-user"
WARM = 20
_stage: contextvars.ContextVar[str] = contextvars.ContextVar("stage", default="(outside)")
_calls: dict[str, list[tuple[str, float]]] = defaultdict(list)
_lexical_ends: list[float] = []  # when each lexical search's answer came in


def _patch_connection() -> None:
    """Every asyncpg call is counted against the stage that made it (or started its task)."""
    for name in ("fetch", "fetchrow", "fetchval", "execute", "executemany"):
        original = getattr(asyncpg.connection.Connection, name)

        def timed(original: Callable[..., Any]) -> Callable[..., Any]:
            async def call(self: Any, query: str, *args: Any, **kwargs: Any) -> Any:
                started = time.perf_counter()
                try:
                    return await original(self, query, *args, **kwargs)
                finally:
                    if query is LEXICAL:
                        _lexical_ends.append(time.perf_counter())
                    first = " ".join(query.split())[:60]
                    _calls[_stage.get()].append((first, time.perf_counter() - started))
            return call

        setattr(asyncpg.connection.Connection, name, timed(original))


class TimedStage:
    """A stage with its wall time and the event loop thread's CPU recorded per request."""

    def __init__(self, name: str, stage: Stage, sink: dict[str, list[tuple[float, float]]]):
        self.name, self.stage, self.sink = name, stage, sink

    async def __call__(self, r: Retrieval) -> None:
        token = _stage.set(self.name)
        started, cpu = time.perf_counter(), time.thread_time()
        try:
            await self.stage(r)
        finally:
            self.sink[self.name].append(
                ((time.perf_counter() - started) * 1000, (time.thread_time() - cpu) * 1000))
            _stage.reset(token)


def _wrap(pipeline: Pipeline, sink: dict[str, list[tuple[float, float]]]) -> None:
    def name(stage: Stage) -> str:
        return type(stage).__name__
    pipeline.stages = tuple(TimedStage(name(s), s, sink) for s in pipeline.stages)
    pipeline.closing = tuple(TimedStage(name(s), s, sink) for s in pipeline.closing)


def _freeze(retriever: Any, pipeline: Pipeline, now: datetime) -> None:
    """For a comparison of the contexts: one `now` for every request, and no access
    recorded (a recorded access changes the next request's freshness, and a deferred one
    lands at a time that differs from run to run), so the same code gives the same ids."""
    retriever._clock = lambda: now
    recording = ("Recording", "FocusRecording")
    pipeline.stages = tuple(s for s in pipeline.stages if type(s).__name__ not in recording)
    pipeline.closing = tuple(s for s in pipeline.closing if type(s).__name__ not in recording)


async def run(args: argparse.Namespace, data_dir: Path) -> tuple[dict[str, Any], list[Any]]:
    """The figures, and each request's context ids (for --contexts)."""
    settings = Settings(
        database=DatabaseSettings(data_dir=data_dir / "pgdata"),
        memory=MemorySettings(encryption_key_path=data_dir / "memory_encryption.key",
                              embedding=EmbeddingSettings(
                                  model=args.model, **({"query_threads": args.query_threads}
                                                       if args.query_threads else {}))),
        worker=WorkerSettings(enabled=False),
    )
    owner = Owner(TENANT, CONTEXT_USER)
    rng = random.Random(7)
    texts = [data.query_text(rng.randrange(data.topic_count()), rng)
             for _ in range(args.queries)]
    _patch_connection()
    async with open_memlane(settings) as memlane:
        if args.lexical_checks:  # the lexical search's budget (LexicalReading.checks)
            memlane.memories.search._lexical_reading = LexicalReading(  # type: ignore[attr-defined]
                checks=args.lexical_checks)
        retriever = memlane.service._retriever
        pipeline = retriever._prompt if args.prompt else retriever._context
        sink: dict[str, list[tuple[float, float]]] = defaultdict(list)
        if args.contexts:
            _freeze(retriever, pipeline, datetime.fromisoformat(args.now))
        _wrap(pipeline, sink)
        ask = memlane.service.prompt_context if args.prompt else memlane.service.retrieve_context

        async def one(text: str) -> Any:
            return await ask(owner, text)
        for text in texts[:WARM]:
            await one(text)
        sink.clear()
        _calls.clear()
        totals, cpus, contexts, tails = [], [], [], []
        meter = CpuMeter(Path(settings.database.data_dir))
        profiler = cProfile.Profile() if args.profile else None
        if profiler is not None:
            profiler.enable()
        meter.start()
        for text in texts:
            started, cpu = time.perf_counter(), time.thread_time()
            _lexical_ends.clear()
            found = await one(text)
            ended = time.perf_counter()
            totals.append((ended - started) * 1000)
            if _lexical_ends:
                tails.append((ended - _lexical_ends[-1]) * 1000)
            cpus.append((time.thread_time() - cpu) * 1000)
            memories = found.memories if args.prompt else found
            contexts.append({"query": text, "ids": [str(m.id) for m in memories],
                             "relevance": [round(m.relevance, 9) for m in memories],
                             **({"text": found.text} if args.prompt else {})})
        meter.stop()
        if profiler is not None:
            profiler.disable()
            stats = pstats.Stats(profiler, stream=sys.stderr).sort_stats(args.profile)
            stats.print_stats(40)
            stats.print_callers(40)
            stats.dump_stats(str(Path(args.data_dir) / "context_stages.prof"))
    n = len(texts)
    stages = {}
    for stage, rows in sink.items():
        calls = _calls.get(stage, [])
        by_query: dict[str, list[float]] = defaultdict(list)
        for query, seconds in calls:
            by_query[query].append(seconds * 1000)
        stages[stage] = {
            "runs": len(rows),
            "wall_p50_ms": round(percentile([w for w, _ in rows], 50), 3),
            "wall_mean_ms": round(sum(w for w, _ in rows) / n, 3),
            "loop_cpu_mean_ms": round(sum(c for _, c in rows) / n, 3),
            "round_trips_per_request": round(len(calls) / n, 2),
            "sql": {q: {"per_request": round(len(v) / n, 2),
                        "p50_ms": round(percentile(v, 50), 3)}
                    for q, v in sorted(by_query.items())},
        }
    return {
        "queries": n,
        "p50_ms": round(percentile(totals, 50), 2),
        "p99_ms": round(percentile(totals, 99), 2),
        # From the lexical search's answer to the context: what does not overlap it.
        "after_lexical_p50_ms": round(percentile(tails, 50), 2),
        "loop_cpu_mean_ms": round(sum(cpus) / n, 2),
        "cpu_ms_per_request": round(meter.total_ms / n, 2),
        "service_cpu_ms_per_request": round(meter.service_ms / n, 2),
        "postgres_cpu_ms_per_request": round(meter.postgres_ms / n, 2),
        "stages": stages,
    }, contexts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--model", default=DEFAULT_EMBEDDING_MODEL)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--prompt", action="store_true", help="prompt_context's pipeline")
    parser.add_argument("--lexical-checks", type=int, default=0,
                        help="LexicalReading.checks (0: the default budget)")
    parser.add_argument("--now", default="2026-11-28T00:00:00+00:00",
                        help="with --contexts: the one `now` of every request")
    parser.add_argument("--query-threads", type=int, default=0,
                        help="memory.embedding.query_threads (0: the default)")
    parser.add_argument("--profile", default=None, choices=("tottime", "cumulative"),
                        help="cProfile of the event loop's thread, to stderr, sorted so")
    parser.add_argument("--contexts", default=None,
                        help="write each request's context ids, with one `now` for all and "
                        "no access recorded (so two runs compare)")
    args = parser.parse_args()
    result, contexts = asyncio.run(run(args, Path(args.data_dir).resolve()))
    if args.contexts:
        Path(args.contexts).write_text(json.dumps(contexts, indent=1))
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
