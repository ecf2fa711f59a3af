"""Audit write cost: the same writes with and without the audit trail, as JSON.

    .venv/bin/python bench/audit.py [--rounds 6] [--ops 40] [--url postgresql://...]

Two MemoryServices over one database (the embedded default in a scratch directory, or
--url), the real ONNX model, XChaCha encryption and the graph on; they differ only in
`audit=`. Each round runs every operation with one service, then the other (alternating
which goes first), each on a fresh user: remember (one memory: embedding + write), a batch
of 32, an edit that pins (no embedding: the storage path alone), and a delete. Prints the
median milliseconds per operation with and without the trail (`--control`: an A/A run,
both without, for the noise of a shared machine). See docs/audit.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from memlane.adapters.embedding.registry import open_embedder
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.database import open_database
from memlane.adapters.postgres.graph.adapter import PostgresGraphAdapter
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.adapters.postgres.security.audit import postgres_audit_ports
from memlane.composition.services import memory_service as build_memory_service
from memlane.domain.model import MemoryPatch, NewMemory, Owner
from memlane.ports.embedding import EmbeddingProvider
from memlane.service.memory_service import MemoryService
from memlane.settings import load_settings

BATCH = 32
PLACES = ["kitchen", "garage", "office", "attic", "cellar", "car", "garden", "studio"]
THINGS = ["passport", "charger", "stapler", "torch", "receipt", "map", "umbrella", "ladder"]


def text(i: int, salt: str) -> str:
    return (f"{salt} note {i}: the {THINGS[i % 8]} is in the {PLACES[(i // 8) % 8]}, "
            f"shelf {i}, since week {i * 7 % 52}")


async def timed(samples: list[float], work: Any) -> Any:
    started = time.perf_counter()
    result = await work
    samples.append((time.perf_counter() - started) * 1000)
    return result


async def workload(
    service: MemoryService, ops: int, times: dict[str, list[float]], salt: str
) -> None:
    """The same texts for both services (by `salt`): the same merges and supersessions."""
    owner = Owner("bench", os.urandom(6).hex())
    ids = []
    for i in range(ops):
        result = await timed(times["remember"], service.remember(owner, NewMemory(
            text(i, salt), importance=0.5)))
        ids.append(result.memory.id)
    ids = list(dict.fromkeys(ids))  # a near-duplicate merged into an earlier memory
    for b in range(max(1, ops // BATCH)):
        batch = [NewMemory(text(1000 + b * BATCH + i, salt)) for i in range(BATCH)]
        await timed(times["remember_batch_32"], service.remember_many(owner, batch))
    for memory_id in ids:
        await timed(times["edit_pin"], service.update(owner, memory_id, MemoryPatch(pinned=True)))
    for memory_id in ids:
        await timed(times["delete"], service.delete(owner, memory_id))


async def run(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    settings = load_settings(database={"data_dir": str(workdir / "pgdata"), "url": args.url})
    embedder = await open_embedder(EmbeddingProvider.ONNX, settings.memory.embedding, True)
    encryption = XChaChaEncryptionAdapter(os.urandom(32))
    try:
        async with open_database(settings.database) as database:
            pool = database.pool
            ports = postgres_memory_ports(pool, dimension=embedder.dimension)

            def service(audited: bool) -> MemoryService:
                return build_memory_service(
                    ports, embedder, encryption, SnowballKeywordAdapter(), settings.policy(),
                    graph=PostgresGraphAdapter(pool),
                    audit=postgres_audit_ports(pool) if audited else None,
                )

            # --control: both "sides" without the trail, to see the noise of the machine.
            services = {"with_audit": service(not args.control), "without_audit": service(False)}
            times: dict[str, dict[str, list[float]]] = {n: defaultdict(list) for n in services}
            await workload(services["without_audit"], 4, defaultdict(list), "warm")
            for round_ in range(args.rounds):
                order = list(services) if round_ % 2 == 0 else list(services)[::-1]
                for name in order:
                    await workload(services[name], args.ops, times[name], f"round {round_}")
    finally:
        await embedder.close()
    report: dict[str, Any] = {"rounds": args.rounds, "ops_per_round": args.ops,
                              "control": args.control}
    for op in times["with_audit"]:
        with_ms = statistics.median(times["with_audit"][op])
        without_ms = statistics.median(times["without_audit"][op])
        report[op] = {"with_audit_ms": round(with_ms, 3), "without_audit_ms": round(without_ms, 3),
                      "added_ms": round(with_ms - without_ms, 3),
                      "samples": len(times["with_audit"][op])}
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--ops", type=int, default=40)
    parser.add_argument("--url", default="", help="A PostgreSQL DSN (default: embedded).")
    parser.add_argument("--control", action="store_true",
                        help="An A/A run: neither service keeps the trail.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memlane-audit-bench-") as workdir:
        print(json.dumps(asyncio.run(run(args, Path(workdir))), indent=2))


if __name__ == "__main__":
    main()
