"""Write cost of fact extraction: the same statements written with facts on and off, as JSON.

    .venv/bin/python bench/fact_writes.py [--memories N] [--json]

Writes N sentences of bench/data/facts_labelled.jsonl (first-person statements, EN and DE,
a quarter without any fact) on the embedded defaults (PostgreSQL, ONNX, encryption, graph
on), through two services over the same database: one reading facts, one not. The two take
turns (text by text for single `remember` calls, batch by batch for `remember_many` batches of
64), each for its own user, so load on the machine falls on both alike. Prints the mean
milliseconds per memory for each, the difference, and how many facts were stored.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memlane.composition.services import memory_service as build_memory_service
from memlane.container import Container
from memlane.domain.model import DEFAULT_TENANT, NewMemory, Owner
from memlane.service.memory_service import MemoryService
from memlane.settings import load_settings

DATA = Path(__file__).resolve().parent / "data" / "facts_labelled.jsonl"
BATCH = 64


def sentences(count: int) -> list[str]:
    lines = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line]
    return [str(line["text"]) for line in lines][:count]


async def services(container: Container) -> tuple[MemoryService, MemoryService]:
    """(with facts, without facts) over the same storage, model and key."""
    with_facts: MemoryService = await container.service()  # type: ignore[misc]
    without = build_memory_service(
        await container.memories(),  # type: ignore[misc]
        await container.embedder(),  # type: ignore[misc]
        await container.encryption(),  # type: ignore[misc]
        container.keywords(),
        container.policy(),
        graph=await container.graph(),  # type: ignore[misc]
        keyring=await container.keyring(),  # type: ignore[misc]
    )
    return with_facts, without


async def run(texts: Sequence[str], workdir: Path) -> dict[str, Any]:
    settings = load_settings(
        database={"data_dir": str(workdir / "pgdata"), "url": ""},
        memory={"encryption_key_path": str(workdir / "bench.key")},
        worker={"enabled": False},
    )
    container = Container(settings=settings)
    try:
        on, off = await services(container)
        spent = {"on_single": 0.0, "off_single": 0.0, "on_batch": 0.0, "off_batch": 0.0}
        owners = {name: Owner(DEFAULT_TENANT, name) for name in spent}
        for service in (on, off):  # warm both paths up
            await service.remember(Owner(DEFAULT_TENANT, "warm"), NewMemory(content="warm up"))
        for index, text in enumerate(texts):
            order = [("on", on), ("off", off)][:: 1 if index % 2 else -1]
            for name, service in order:
                started = time.perf_counter()
                await service.remember(owners[f"{name}_single"], NewMemory(content=text))
                spent[f"{name}_single"] += time.perf_counter() - started
        for index, start in enumerate(range(0, len(texts), BATCH)):
            batch = [NewMemory(content=t) for t in texts[start:start + BATCH]]
            order = [("on", on), ("off", off)][:: 1 if index % 2 else -1]
            for name, service in order:
                started = time.perf_counter()
                await service.remember_many(owners[f"{name}_batch"], batch)
                spent[f"{name}_batch"] += time.perf_counter() - started
        facts = 0
        for name in ("on_single", "on_batch"):
            facts += len((await on.facts.list(owners[name], limit=500)).items)
    finally:
        await container.shutdown_resources()  # type: ignore[misc]
    per = {k: round(v * 1000 / len(texts), 3) for k, v in spent.items()}
    return {
        "single_ms_per_memory": {"facts_on": per["on_single"], "facts_off": per["off_single"],
                                 "difference": round(per["on_single"] - per["off_single"], 3)},
        "batch_ms_per_memory": {"facts_on": per["on_batch"], "facts_off": per["off_batch"],
                                "difference": round(per["on_batch"] - per["off_batch"], 3)},
        "facts_stored": facts,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=300)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    texts = sentences(args.memories)
    workdir = Path(tempfile.mkdtemp(prefix="memlane-fact-writes-"))
    try:
        result = {"memories": len(texts), **asyncio.run(run(texts, workdir))}
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
