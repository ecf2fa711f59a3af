"""HTTP figures of bench/scale.py against `memlane serve`: open-loop context latency and the
CPU it costs, the highest rate held with p99 <= 100 ms, GET latency, and the pinned ingest.

Ingest is pinned: half the memories through POST /v1/memories/batch, half as conversation
segments (a user message and the reply after it: one memory) through
/v1/conversations/{id}/messages, texts of ~60 tokens, into the context user who already
holds the loaded memories. What it added is deleted afterwards, so a rerun finds the
loaded user as it was.
"""

from __future__ import annotations

import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench import scale_data as data
from bench.scale_cpu import CpuMeter
from bench.scale_http import Server, drive, open_loop

from memlane.container import Memlane
from memlane.domain.security.auth import Scope
from memlane.settings import Settings

RATES = (20, 50, 100)
MAX_RATE_P99_MS = 100.0
RATE_STEP = 10
INGEST_BATCH = 32  # memories per request, either way
INGEST_CONCURRENCY = 2
FORGET_INGESTED = """
WITH gone AS (
    DELETE FROM memories WHERE tenant = $1 AND user_id = $2 AND created_at >= $3 RETURNING id
)
DELETE FROM memory_heat AS h USING gone WHERE h.tenant = $1 AND h.user_id = $2 AND h.id = gone.id
"""


def _log(message: str) -> None:
    print(f"[scale-http] {message}", file=sys.stderr, flush=True)


async def measure(
    memlane: Memlane, settings: Settings, tenant: str, user: str, *, seconds: float,
    warmup_s: float, step_s: float, ingest_s: float, load: bool = True,
) -> dict[str, Any]:
    """Every HTTP figure; with `load` off only the pinned ingest and the server's RSS."""
    created = await memlane.keys.create(tenant, [Scope.READ, Scope.WRITE], name="bench")
    pool = memlane.database.pool
    ids = [r["id"] for r in await pool.fetch(
        "SELECT id FROM memory_heat WHERE tenant = $1 AND user_id = $2 LIMIT 5000", tenant, user)]
    rng = random.Random(11)
    queries = [data.query_text(rng.randrange(data.topic_count()), rng) for _ in range(4000)]
    pgdata = Path(settings.database.data_dir)
    server = Server(pgdata, settings.memory.encryption_key_path, settings.memory.embedding.model)
    await server.start()
    try:
        def context(client: Any, n: int) -> Any:
            body = {"query": queries[n % len(queries)], "user_id": user}
            return client.post("/v1/context", json=body)

        def get(client: Any, n: int) -> Any:
            return client.get(f"/v1/memories/{ids[n % len(ids)]}", params={"user_id": user})

        token = created.token
        if not load:
            ingest = await _ingest(memlane, server.url, token, tenant, user, ingest_s)
            return {**ingest, "rss_mb": round(server.peak_rss_mb(), 1)}
        await open_loop(server.url, token, context, rate=RATES[0], duration_s=warmup_s)
        rates = []
        for rate in RATES:
            meter = CpuMeter(pgdata, server.pid)
            meter.start()
            point = await open_loop(server.url, token, context, rate=rate, duration_s=seconds,
                                    seed=rate)
            meter.stop()
            point["cpu_ms_per_request"] = round(meter.total_ms / max(1, point["requests"]), 2)
            point["service_cpu_ms"] = round(meter.service_ms / max(1, point["requests"]), 2)
            _log(f"open loop: {point}")
            rates.append(point)
        max_rate = await _max_rate(server.url, token, context, rates, step_s)
        closed = await drive(server.url, token, context, concurrency=8, duration_s=step_s)
        got = await drive(server.url, token, get, concurrency=8, duration_s=step_s)
        ingest = await _ingest(memlane, server.url, token, tenant, user, ingest_s)
        return {
            "http": {"open_loop": rates, "max_rate_p99_100ms": max_rate,
                     "closed_c8": {"context_rps": closed["rps"], "context_p50_ms":
                                   closed["p50_ms"], "context_p99_ms": closed["p99_ms"],
                                   "get_rps": got["rps"], "get_p50_ms": got["p50_ms"],
                                   "get_p99_ms": got["p99_ms"]}},
            **ingest,
            "rss_mb": round(server.peak_rss_mb(), 1),
        }
    finally:
        server.stop()


async def _max_rate(
    url: str, token: str, context: Any, measured: list[dict[str, Any]], step_s: float
) -> int:
    """The highest rate, in steps of RATE_STEP, whose p99 stayed within 100 ms. From the
    highest measured rate that held, upwards until a probe misses (never up to a measured
    rate that missed); when none held, downwards from the lowest until a probe holds. An
    overloaded rate queues requests for the whole probe, so few such probes are run."""
    held = sorted(int(p["rate"]) for p in measured if p["p99_ms"] <= MAX_RATE_P99_MS)
    missed = sorted(int(p["rate"]) for p in measured if p["p99_ms"] > MAX_RATE_P99_MS)
    if held:
        best, ceiling = held[-1], min([r for r in missed if r > held[-1]], default=1000)
        rate, step = best + RATE_STEP, RATE_STEP
    else:
        best, ceiling = 0, missed[0]
        rate, step = missed[0] - RATE_STEP, -RATE_STEP
    while 0 < rate < ceiling:
        point = await open_loop(url, token, context, rate=rate, duration_s=step_s, seed=rate)
        _log(f"max rate probe: {point}")
        if (point["p99_ms"] <= MAX_RATE_P99_MS) != (step > 0):
            # Going up: the first miss ends it; going down: the first hold is the answer.
            return rate if step < 0 else best
        best = rate if step > 0 else best
        rate += step
    return best


async def _ingest(
    memlane: Memlane, url: str, token: str, tenant: str, user: str, duration_s: float
) -> dict[str, Any]:
    """Memories/s of the pinned workload (two writers), then what it stored is deleted."""
    rng = random.Random(13)
    since = datetime.now(UTC)

    def write(client: Any, n: int) -> Any:
        texts = [data.memory_text(rng.randrange(data.topic_count()), rng) + f" (note {n}-{i})"
                 for i in range(INGEST_BATCH)]
        if n % 2 == 0:
            body = {"user_id": user, "memories": [{"content": t} for t in texts]}
            return client.post("/v1/memories/batch", json=body, timeout=120)
        # A segment is a user message and the reply after it: ~60 tokens together.
        messages = []
        for text in texts:
            words = text.split()
            half = len(words) // 2
            messages += [{"role": "user", "content": " ".join(words[:half])},
                         {"role": "assistant", "content": " ".join(words[half:])}]
        return client.post(f"/v1/conversations/bench-{n}/messages",
                           json={"user_id": user, "messages": messages}, timeout=120)

    started = time.perf_counter()
    result = await drive(url, token, write, concurrency=INGEST_CONCURRENCY, duration_s=duration_s)
    _log(f"ingest: {result} in {time.perf_counter() - started:.1f}s")
    await memlane.database.pool.execute(FORGET_INGESTED, tenant, user, since, timeout=600)
    return {"ingest_per_s": round(result["rps"] * INGEST_BATCH, 1)}
