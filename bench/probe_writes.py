"""Write latency with the optional model probe on and off, against a slow stub model, as JSON.

    .venv/bin/python bench/probe_writes.py [--memories N] [--model-ms MS] [--timeout-ms MS]

Writes N sentences of bench/data/facts_labelled.jsonl one `remember` at a time on the
embedded defaults (PostgreSQL, ONNX, encryption, graph, entities, facts), through two
services over the same database: the default (no model) and one whose probe asks a local
stub of Ollama's POST /api/chat that answers an empty patch after MS milliseconds. They take
turns, each for its own user. Prints p50 and mean milliseconds per write for each, then how
many probes ran and fell back once every probe has ended: a write must not wait for the
model (the probe runs after it, in the background).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memlane.adapters.facts.ollama_probe import OllamaProbe
from memlane.composition.services import memory_service as build_memory_service
from memlane.container import Container
from memlane.domain.model import DEFAULT_TENANT, NewMemory, Owner
from memlane.service.memory_service import MemoryService
from memlane.settings import load_settings

DATA = Path(__file__).resolve().parent / "data" / "facts_labelled.jsonl"
EMPTY = json.dumps({"nodes": [], "edges": [], "facts": []})


def sentences(count: int) -> list[str]:
    lines = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line]
    return [str(line["text"]) for line in lines][:count]


async def slow_model(delay_s: float) -> asyncio.Server:
    """A stub /api/chat: an empty patch after `delay_s` (one request per connection)."""
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            length = 0
            while (line := await reader.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            await reader.readexactly(length)
            await asyncio.sleep(delay_s)
            body = json.dumps({"model": "stub", "message": {"role": "assistant",
                                                            "content": EMPTY}, "done": True})
            writer.write(f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                         f"{len(body)}\r\nConnection: close\r\n\r\n{body}".encode())
            await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass  # the probe gave up first
        finally:
            writer.close()
    return await asyncio.start_server(answer, "127.0.0.1", 0)


async def run(texts: Sequence[str], workdir: Path, model_ms: int, timeout_ms: int
              ) -> dict[str, Any]:
    settings = load_settings(
        database={"data_dir": str(workdir / "pgdata"), "url": ""},
        memory={"encryption_key_path": str(workdir / "bench.key")},
        worker={"enabled": False},
    )
    container = Container(settings=settings)
    server = await slow_model(model_ms / 1000)
    host, port = server.sockets[0].getsockname()[:2]
    probe = OllamaProbe("stub", f"http://{host}:{port}", timeout_ms)
    try:
        off: MemoryService = await container.service()  # type: ignore[misc]
        facts = await container.facts()  # type: ignore[misc]
        on = build_memory_service(
            await container.memories(), await container.embedder(),  # type: ignore[misc]
            await container.encryption(), container.keywords(),  # type: ignore[misc]
            container.policy(), graph=await container.graph(),  # type: ignore[misc]
            entities=await container.entities(), facts=facts, probe=probe,  # type: ignore[misc]
            keyring=await container.keyring(), affect=container.affect(),  # type: ignore[misc]
        )
        for service in (on, off):  # warm both paths up
            await service.remember(Owner(DEFAULT_TENANT, "warm"), NewMemory(content="warm up"))
        spent: dict[str, list[float]] = {"probe_on": [], "probe_off": []}
        for index, text in enumerate(texts):
            order = [("probe_on", on), ("probe_off", off)][:: 1 if index % 2 else -1]
            for name, service in order:
                started = time.perf_counter()
                await service.remember(Owner(DEFAULT_TENANT, name), NewMemory(content=text))
                spent[name].append((time.perf_counter() - started) * 1000)
        assert on.probing is not None
        await on.probing.drain()
        counts = on.probing.counts
    finally:
        await probe.close()
        server.close()
        await container.shutdown_resources()  # type: ignore[misc]
    return {
        "ms_per_write": {name: {"p50": round(statistics.median(v), 2),
                                "mean": round(statistics.fmean(v), 2)}
                         for name, v in spent.items()},
        "probe_calls": counts.calls, "probe_fallbacks": dict(counts.fallbacks),
        "probe_mean_ms": round(counts.seconds * 1000 / max(1, counts.calls), 1),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=200)
    parser.add_argument("--model-ms", type=int, default=1500, help="the stub model's delay")
    parser.add_argument("--timeout-ms", type=int, default=3000, help="the probe's timeout")
    args = parser.parse_args(argv)
    texts = sentences(args.memories)
    workdir = Path(tempfile.mkdtemp(prefix="memlane-probe-writes-"))
    try:
        result = {"memories": len(texts), "model_ms": args.model_ms,
                  "timeout_ms": args.timeout_ms,
                  **asyncio.run(run(texts, workdir, args.model_ms, args.timeout_ms))}
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
