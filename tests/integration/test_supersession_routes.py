"""The same decision whichever route wrote it (issue 23, item 7): scenarios of the supersession
set through `remember` and through `add_messages` (each statement a user message with a reply)
on the real stack, each a fresh user, replace the same older statements.

A fixed sample (every scenario whose id hashes into one bucket in twelve) keeps the test short;
bench/supersession_routes.py runs every scenario and reports how often the routes agree.
"""

from __future__ import annotations

import hashlib
import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import asyncpg
import pytest

from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.facts.heuristic import HeuristicFactExtractor
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.facts.adapter import PostgresFactAdapter
from memlane.adapters.postgres.graph.adapter import PostgresGraphAdapter
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.composition.services import memory_service as build_memory_service
from memlane.domain.graph import EdgeKind
from memlane.domain.memories import Message, Role
from memlane.domain.model import NewMemory, Owner
from memlane.domain.policy import MemoryPolicy
from memlane.ports.facts.store import FactPorts
from memlane.service.memory_service import MemoryService

pytestmark = pytest.mark.integration

SCENARIOS = Path(__file__).resolve().parents[2] / "bench" / "data" / "supersession_scenarios.jsonl"
REPLY = "Thanks for telling me, I'll keep that in mind."
REPLACING = {EdgeKind.SUPERSEDES, EdgeKind.CONTRADICTION}
START = datetime(2026, 3, 1, 9, tzinfo=UTC)


def _sample() -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in SCENARIOS.read_text(encoding="utf-8").splitlines()
            if line]
    return [r for r in rows if hashlib.sha256(r["id"].encode()).digest()[0] % 12 == 0]


def _service(pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter) -> MemoryService:
    return build_memory_service(
        postgres_memory_ports(pool, dimension=embedder.dimension),
        embedder,
        XChaChaEncryptionAdapter(os.urandom(32)),
        SnowballKeywordAdapter(),
        MemoryPolicy(),
        graph=PostgresGraphAdapter(pool),
        facts=FactPorts(PostgresFactAdapter(pool), HeuristicFactExtractor()),
    )


async def _write(service: MemoryService, owner: Owner, route: str, text: str, day: int) -> UUID:
    at = START + timedelta(days=day)
    if route == "memory":
        return (await service.remember(owner, NewMemory(content=text, created_at=at))).memory.id
    added = await service.add_messages(owner, "chat", [
        Message(Role.USER, text, at), Message(Role.ASSISTANT, REPLY, at + timedelta(seconds=5)),
    ])
    return added.memories[0].id


async def _replaced(service: MemoryService, scenario: dict[str, Any], route: str) -> list[int]:
    owner = Owner("routes", f"{route}-{uuid4()}")
    older = [await _write(service, owner, route, text, day)
             for day, text in enumerate(scenario["history"])]
    new = await _write(service, owner, route, scenario["new"], len(older))
    view = await service.neighbourhood(owner, new, 1, REPLACING)
    return sorted(older.index(e.target) for e in view.edges
                  if e.source == new and e.target in older)


async def test_both_write_routes_replace_the_same_statements(
    pg_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter
) -> None:
    service = _service(pg_pool, embedder)
    sample = _sample()
    assert len(sample) > 60  # both languages, every family's share
    differing = {
        s["id"]: (by_memory, by_conversation)
        for s in sample
        if (by_memory := await _replaced(service, s, "memory"))
        != (by_conversation := await _replaced(service, s, "conversation"))
    }
    assert differing == {}
