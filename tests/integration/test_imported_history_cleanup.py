"""Imported chat history survives cleanup (issue 28): exports dated years back, in both formats,
through the real stack; what cleanup removes stays out of a re-import; only erasure clears the
ledger."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg
import pytest

from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.facts.heuristic import HeuristicFactExtractor
from memlane.adapters.imports.export_file import FileChatExportAdapter
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.entities.adapter import PostgresEntityAdapter
from memlane.adapters.postgres.facts.adapter import PostgresFactAdapter
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.adapters.postgres.portability.import_ledger import PostgresImportLedgerAdapter
from memlane.adapters.postgres.security.audit import postgres_audit_ports
from memlane.composition.services import memory_service as build_memory_service
from memlane.domain.model import MemoryFilter, Owner
from memlane.domain.policy import MemoryPolicy
from memlane.ports.facts.store import FactPorts
from memlane.service.portability.chat_import import ChatImporter
from tests.fakes.clock import FakeClock

pytestmark = pytest.mark.integration

IMPORTED_AT = datetime(2027, 3, 1, 12, tzinfo=UTC)
# Small talk the user never needs again, and what they imported their history for.
EXCHANGES = [
    ("Can you suggest another word for happy?", "Cheerful, content or glad all work."),
    ("How many minutes should I boil an egg?", "About eight minutes for a firm yolk."),
    ("My sister Beatriz is moving to Porto next month", "That is exciting news for her."),
    ("I work at Siemens as an electrical engineer", "Noted, that sounds like a good role."),
]


def chatgpt_export(path: Path, year: int) -> Path:
    start = datetime(year, 5, 4, 10, tzinfo=UTC).timestamp()
    mapping: dict[str, dict[str, object]] = {"root": {"id": "root", "message": None,
                                                       "parent": None, "children": []}}
    parent = "root"
    for n, (question, answer) in enumerate(EXCHANGES):
        for role, text, step in (("user", question, 0), ("assistant", answer, 1)):
            node = f"m{n}-{role}"
            mapping[node] = {"id": node, "parent": parent, "children": [], "message": {
                "id": node, "author": {"role": role}, "create_time": start + 60 * n + step,
                "content": {"content_type": "text", "parts": [text]}}}
            mapping[parent]["children"].append(node)  # type: ignore[attr-defined]
            parent = node
    chats = [{"conversation_id": f"c-{year}", "title": "Odds and ends", "create_time": start,
              "mapping": mapping, "current_node": parent}]
    path.write_text(json.dumps(chats))
    return path


def claude_export(path: Path, year: int) -> Path:
    messages = []
    for n, (question, answer) in enumerate(EXCHANGES):
        for sender, text, minute in (("human", question, 2 * n), ("assistant", answer, 2 * n + 1)):
            messages.append({"uuid": f"{year}-{n}-{sender}", "sender": sender, "text": text,
                             "created_at": f"{year}-02-03T09:{minute:02d}:00Z"})
    chats = [{"uuid": f"chat-{year}", "name": "Odds and ends",
              "created_at": f"{year}-02-03T09:00:00Z", "chat_messages": messages}]
    path.write_text(json.dumps(chats))
    return path


class Stack:
    """The real service (facts and entities on) and the chat importer, on a fake clock."""

    def __init__(self, pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter) -> None:
        self.clock = FakeClock(IMPORTED_AT)
        crypto = XChaChaEncryptionAdapter(os.urandom(32))
        self.service = build_memory_service(
            postgres_memory_ports(pool, dimension=embedder.dimension), embedder, crypto,
            SnowballKeywordAdapter(), MemoryPolicy(), self.clock,
            audit=postgres_audit_ports(pool), entities=PostgresEntityAdapter(pool),
            facts=FactPorts(PostgresFactAdapter(pool), HeuristicFactExtractor()),
        )
        self.importer = ChatImporter(self.service, PostgresImportLedgerAdapter(pool),
                                     FileChatExportAdapter(), crypto)

    async def contents(self, owner: Owner) -> list[str]:
        page = await self.service.list(owner, MemoryFilter(), None, 100)
        return sorted(m.content for m in page.items)


@pytest.mark.parametrize(("source", "export", "year"), [
    ("chatgpt", chatgpt_export, 2019), ("claude", claude_export, 2021)])
async def test_an_export_from_years_back_survives_cleanup_and_keeps_what_it_was_imported_for(
    pg_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter, owner: Owner, tmp_path: Path,
    source: str, export: object, year: int,
) -> None:
    stack = Stack(pg_pool, embedder)
    path = export(tmp_path / "conversations.json", year)  # type: ignore[operator]
    first = await stack.importer.import_file(owner, path, source)  # type: ignore[arg-type]
    assert first.memories_added == len(EXCHANGES)
    imported = await stack.contents(owner)
    page = await stack.service.list(owner, MemoryFilter(), None, 100)
    assert {m.created_at.year for m in page.items} == {year}  # dated when it was said

    # The first cleanup (the worker's, 30 s after a start) and one within the grace period.
    assert await stack.service.cleanup(owner) == 0
    stack.clock.advance(timedelta(days=6))
    assert await stack.service.cleanup(owner) == 0
    assert await stack.contents(owner) == imported

    # Past the grace period, nothing has faded yet: the curve started at the import, not in
    # the year the chat took place.
    stack.clock.advance(timedelta(days=2))
    assert await stack.service.cleanup(owner) == 0
    # A season later every context exchange has faded: the small talk goes, the names (kept
    # for them) and the job (a fact, above its type's floor) stay.
    stack.clock.advance(timedelta(days=118))
    assert await stack.service.cleanup(owner) == 2
    kept = await stack.contents(owner)
    assert len(kept) == 2
    assert any("Beatriz" in text for text in kept) and any("Siemens" in text for text in kept)

    # What cleanup removed does not come back with a re-import...
    again = await stack.importer.import_file(owner, path, source)  # type: ignore[arg-type]
    assert (again.messages_added, again.memories_added) == (0, 0)
    # ...nor when cleanup or the user took every memory: only an erasure clears the ledger.
    for memory_id in [m.id for m in (await stack.service.list(
            owner, MemoryFilter(), None, 100)).items]:
        await stack.service.delete(owner, memory_id)
    assert (await stack.importer.import_file(owner, path, source)).memories_added == 0  # type: ignore[arg-type]
    await stack.service.delete_all(owner)
    fresh = await stack.importer.import_file(owner, path, source)  # type: ignore[arg-type]
    assert fresh.memories_added == len(EXCHANGES)
