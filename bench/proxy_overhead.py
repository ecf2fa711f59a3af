"""The memory proxy's cost: added latency to the first streamed byte beside POST /v1/context's
p50 in the same run, and requests per second, against a stub that answers at once, as JSON.

    .venv/bin/python bench/proxy_overhead.py [--memories N] [--requests R] [--seconds S]
                                             [--data-dir DIR]

On the embedded defaults (PostgreSQL, ONNX, encryption) in a scratch data dir, N (10,000)
memories are loaded for one user (bench/scale.py's loader), then `memlane serve` runs as its
own process with `[proxy] upstream_url` on bench/proxy_stub.py (another process). At
concurrency 1, R (200) rounds of four requests with the same question, in an order that
turns each round, each after the deferred writes of the one before are flushed:

- `direct`: the stub's first streamed byte, called directly;
- `proxy`: the first streamed byte through memlane (`X-Memlane-Memory: read`: injection, as
  the first byte waits for it; learning happens after the answer);
- `context`: POST /v1/context with the query and active_context the proxy derives from the
  same messages (the previous exchange and the question), the whole answer; and the same
  context in process (`MemoryService.prompt_context` in this process, on the same database:
  `context_in_process_p50_ms`).

`added_ms` = p50(proxy) - p50(direct): what memlane adds before the first byte;
`added_over_context_ms` = added_ms - p50(context) (target: at most 5), and
`added_over_context_paired_p50_ms` the median over rounds of proxy - direct - context (the
three requests of a round run back to back). Then closed-loop load
for S (10) seconds at concurrency 8 through the proxy, streamed, with memory `read` and
`on` (learning in the background: its counters from /metrics), and directly at the stub.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench import scale_data as data
from bench.scale import CONTEXT_USER, TENANT, load_context_user
from bench.scale_http import Server, free_port
from bench.scale_stats import percentile

from memlane.adapters.encryption.keyfile import load_or_create_key
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.container import open_memlane
from memlane.domain.model import Owner
from memlane.domain.proxy import active_texts, query_for, read_messages
from memlane.domain.retrieval import ContextOptions
from memlane.domain.security.auth import Scope
from memlane.service.memory_service import MemoryService
from memlane.service.security.sealing import Sealer
from memlane.settings import DatabaseSettings, MemorySettings, Settings, WorkerSettings

STUB = Path(__file__).resolve().parent / "proxy_stub.py"
WARM_UP = 20  # rounds not counted
SETTLE_S = 0.1  # between two measured requests


def conversations(count: int) -> list[list[dict[str, str]]]:
    """A previous exchange and a question, each about the loaded topics."""
    rng = random.Random(7)
    topics = data.topic_count()
    return [
        [
            {"role": "user", "content": data.query_text(rng.randrange(topics), rng)},
            {"role": "assistant", "content": "Here is what I know about that."},
            {"role": "user", "content": data.query_text(rng.randrange(topics), rng)},
        ]
        for _ in range(count)
    ]


async def first_byte_ms(client: httpx.AsyncClient, url: str, body: dict[str, Any],
                        headers: dict[str, str]) -> float:
    started = time.perf_counter()
    async with client.stream("POST", url, json=body, headers=headers) as response:
        if response.status_code != 200:
            raise RuntimeError(f"HTTP {response.status_code}: {(await response.aread())[:200]!r}")
        waited = 0.0
        async for _ in response.aiter_raw():
            if not waited:
                waited = (time.perf_counter() - started) * 1000
    return waited


async def latency(
    stub: str, memlane: str, token: str, rounds: int, service: MemoryService
) -> dict[str, Any]:
    auth = {"Authorization": f"Bearer {token}"}
    owner = Owner(TENANT, CONTEXT_USER)
    chats = conversations(rounds + WARM_UP)
    times: dict[str, list[float]] = {"direct": [], "proxy": [], "context": [], "in_process": []}
    async with httpx.AsyncClient(timeout=60) as client:

        async def context_over_http(context: dict[str, Any]) -> float:
            started = time.perf_counter()
            answered = await client.post(f"{memlane}/v1/context", json=context, headers=auth)
            if answered.status_code != 200:
                raise RuntimeError(f"/v1/context: HTTP {answered.status_code}")
            return (time.perf_counter() - started) * 1000

        async def context_in_process(context: dict[str, Any]) -> float:
            options = ContextOptions(active_context=tuple(context["active_context"]))
            started = time.perf_counter()
            await service.prompt_context(owner, context["query"], None, options)
            return (time.perf_counter() - started) * 1000

        for index, messages in enumerate(chats):
            body = {"model": "bench-model", "stream": True, "messages": messages}
            read = read_messages(body)
            context = {"query": query_for(read),
                       "active_context": active_texts(read, datetime.now(UTC))}

            async def measure(
                name: str, body: dict[str, Any] = body, context: dict[str, Any] = context
            ) -> float:
                if name == "direct":
                    return await first_byte_ms(client, f"{stub}/v1/chat/completions", body, {})
                if name == "proxy":
                    return await first_byte_ms(
                        client, f"{memlane}/v1/chat/completions", body,
                        {**auth, "X-Memlane-Memory": "read"},
                    )
                if name == "context":
                    return await context_over_http(context)
                return await context_in_process(context)

            # The order turns each round, and each request starts once the deferred access
            # writes of the one before (50 ms) are flushed: none pays for another's.
            names = list(times)
            names = names[index % 4:] + names[:index % 4]
            for name in names:
                await asyncio.sleep(SETTLE_S)
                took = await measure(name)
                if index >= WARM_UP:
                    times[name].append(took)
    p50 = {k: percentile(v, 50) for k, v in times.items()}
    added = p50["proxy"] - p50["direct"]
    # The same round's three requests ran back to back: their difference is less exposed to a
    # machine whose load drifts over the run than a difference of whole-run medians.
    paired = [p - d - c for p, d, c in zip(
        times["proxy"], times["direct"], times["context"], strict=True
    )]
    return {
        "rounds": rounds,
        "direct_first_byte_p50_ms": round(p50["direct"], 2),
        "proxy_first_byte_p50_ms": round(p50["proxy"], 2),
        "proxy_first_byte_p95_ms": round(percentile(times["proxy"], 95), 2),
        "context_p50_ms": round(p50["context"], 2),
        "context_in_process_p50_ms": round(p50["in_process"], 2),
        "added_ms": round(added, 2),
        "added_over_context_ms": round(added - p50["context"], 2),
        "added_over_context_paired_p50_ms": round(percentile(paired, 50), 2),
    }


async def load(url: str, headers: dict[str, str], seconds: float) -> float:
    """Streamed chats per second at concurrency 8, each read to its end."""
    chats = conversations(500)
    limits = httpx.Limits(max_connections=8, max_keepalive_connections=8)
    done = 0
    async with httpx.AsyncClient(timeout=60, limits=limits, headers=headers) as client:
        stop_at = time.perf_counter() + seconds

        async def worker(offset: int) -> None:
            nonlocal done
            n = offset
            while time.perf_counter() < stop_at:
                body = {"model": "bench-model", "stream": True, "messages": chats[n % 500]}
                await first_byte_ms(client, url, body, {})
                done += 1
                n += 8

        started = time.perf_counter()
        await asyncio.gather(*(worker(i) for i in range(8)))
        return round(done / (time.perf_counter() - started), 1)


def learning_counters(text: str) -> dict[str, float]:
    found = {}
    for line in text.splitlines():
        if line.startswith("memlane_proxy_learning_total{"):
            outcome = line.split('outcome="', 1)[1].split('"', 1)[0]
            found[outcome] = float(line.rsplit(" ", 1)[1])
    return found


async def run(args: argparse.Namespace) -> dict[str, Any]:
    data_dir: Path = args.data_dir or Path(tempfile.mkdtemp(prefix="memlane-bench-proxy-"))
    settings = Settings(
        database=DatabaseSettings(data_dir=data_dir / "pgdata"),
        memory=MemorySettings(encryption_key_path=data_dir / "memory_encryption.key"),
        worker=WorkerSettings(enabled=False),
    )
    async with open_memlane(settings) as memlane:
        sealer = Sealer(
            XChaChaEncryptionAdapter(load_or_create_key(settings.memory.encryption_key_path)),
            SnowballKeywordAdapter(), settings.memory.policy().base_rate,
        )
        await load_context_user(memlane, sealer, args.memories, seed=1)
        created = await memlane.keys.create(
            TENANT, [Scope.READ, Scope.WRITE], user_id=CONTEXT_USER, name="bench-proxy"
        )
        port = free_port()
        stub = subprocess.Popen([sys.executable, str(STUB), str(port)])  # noqa: ASYNC220
        stub_url = f"http://127.0.0.1:{port}"
        server = Server(settings.database.data_dir, settings.memory.encryption_key_path)
        os.environ["MEMLANE_PROXY__UPSTREAM_URL"] = f"{stub_url}/v1"
        server._env["MEMLANE_PROXY__UPSTREAM_URL"] = f"{stub_url}/v1"
        try:
            await server.start()
            result: dict[str, Any] = {
                "memories": args.memories,
                "latency": await latency(
                    stub_url, server.url, created.token, args.requests, memlane.service
                ),
            }
            auth = {"Authorization": f"Bearer {created.token}"}
            result["load"] = {
                "concurrency": 8, "seconds": args.seconds,
                "direct_rps": await load(f"{stub_url}/v1/chat/completions", {}, args.seconds),
                "proxy_read_rps": await load(
                    f"{server.url}/v1/chat/completions",
                    {**auth, "X-Memlane-Memory": "read"}, args.seconds,
                ),
                "proxy_on_rps": await load(
                    f"{server.url}/v1/chat/completions", auth, args.seconds
                ),
            }
            async with httpx.AsyncClient() as client:
                metrics = (await client.get(f"{server.url}/metrics")).text
            result["load"]["learning"] = learning_counters(metrics)
            return result
        finally:
            server.stop()
            stub.terminate()
            stub.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--data-dir", type=Path, default=None)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args)), indent=2))


if __name__ == "__main__":
    main()
