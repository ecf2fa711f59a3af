"""Nothing private in plaintext: a distinct marker in every field a user can write, then the
whole data dir (table files, pg_wal, the server log) and our own logs are searched for each.

memlane runs as in production: its own embedded PostgreSQL in a fresh data dir, started by the
composition root, with encryption on. The only plaintext allowed is what docs/security.md lists
(tenant and user ids, relation names, types, times)."""

from __future__ import annotations

import json
import logging
import os
import random
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

from memlane.adapters.postgres.server_logging import NO_VALUE_LOGGING
from memlane.container import open_memlane
from memlane.domain.facts.model import FactType
from memlane.domain.facts.records import NewFact
from memlane.domain.graph.knowledge import Entity
from memlane.domain.memories.segments import Message, Role
from memlane.domain.model import MemoryFilter, MemoryPatch, NewMemory, Owner
from memlane.domain.security.auth import Scope
from memlane.settings import Settings

pytestmark = pytest.mark.integration

FIXTURE = Path(__file__).parents[1] / "fixtures" / "imports" / "claude_conversations.json"
CONTROL = "ControlLabelVisibleOnPurpose"
# Letters outside 0-9a-f: a marker can never be part of a hex blind token or digest.
_LETTERS = "ghjkmnpqrstuvwxyz"


def _markers(*fields: str) -> dict[str, str]:
    """One capitalised marker per field ("Qhkmz..."), so a name-like marker reads as a name."""
    rng = random.Random(os.urandom(16))
    return {f: "Q" + "".join(rng.choice(_LETTERS) for _ in range(13)) for f in fields}


FIELDS = (
    "content", "content_new", "tag", "tag_new", "tag_deleted", "content_deleted",
    "meta_key", "meta_value", "meta_key_new", "meta_value_new", "conversation_id",
    "message", "message_name", "conversation_id_messages", "entity_name", "fact_subject",
    "fact_object", "fact_relation", "topic", "kg_entity", "kg_observation", "import_title",
    "import_message", "search_query", "error_detail", "error_context",
)


@pytest.fixture
def data_dir() -> Iterator[Path]:
    # Not under pytest's tmp_path (mode 0700): pgserver runs PostgreSQL as its own user as root.
    parent = Path(tempfile.mkdtemp(prefix="memlane-plaintext-"))
    try:
        yield parent
    finally:
        shutil.rmtree(parent, ignore_errors=True)


def _settings(home: Path) -> Settings:
    return Settings(
        database={"url": "", "data_dir": home / "pgdata", "shared_buffers": "128MB",
                  "pool_min_size": 1, "pool_max_size": 4},
        memory={"encryption_key_path": home / "memlane.key"},
        worker={"enabled": False},
    )


def _claude_export(path: Path, mark: dict[str, str]) -> Path:
    chats = json.loads(FIXTURE.read_text())[:1]
    chats[0]["name"] = f"{mark['import_title']} planning"
    message = chats[0]["chat_messages"][0]
    text = f"My neighbour {mark['import_message']} lends me her ladder on Sundays."
    message["text"] = text
    message["content"][0]["text"] = text
    path.write_text(json.dumps(chats))
    return path


async def _provoke_errors(pool: asyncpg.Pool, mark: dict[str, str]) -> None:
    """Errors whose DETAIL and CONTEXT lines quote the values sent (a failing row, JSON
    input): the server log must keep neither. Nothing is stored by either statement."""
    with pytest.raises(asyncpg.CheckViolationError):
        await pool.execute(
            "INSERT INTO memory_heat (tenant, user_id, id, memory_type, importance, "
            "base_importance, accessed_at) VALUES ($1, 'u', gen_random_uuid(), 'bogus', 0.5, "
            "0.5, now())", mark["error_detail"],
        )
    with pytest.raises(asyncpg.PostgresError):
        await pool.fetchval("SELECT $1::text::jsonb", f'{{"k": "{mark["error_context"]}\\u0000"}}')


async def _write_everything(home: Path, mark: dict[str, str]) -> None:
    owner = Owner("plain-tenant", "plain-user")
    async with open_memlane(_settings(home)) as memlane:
        service = memlane.service
        written = await service.remember(owner, NewMemory(
            content=f"Yesterday I had lunch with {mark['entity_name']} and {mark['content']}.",
            tags=(mark["tag"], "garden"), conversation_id=mark["conversation_id"],
            metadata={mark["meta_key"]: mark["meta_value"], "conversation_title": mark["topic"]},
        ))
        await service.update(owner, written.memory.id, MemoryPatch(
            content=f"Later I had lunch with {mark['entity_name']} and {mark['content_new']}.",
            tags=(mark["tag_new"],), metadata={mark["meta_key_new"]: mark["meta_value_new"]},
        ))
        doomed = await service.remember(owner, NewMemory(
            content=f"A note about {mark['content_deleted']} to throw away",
            tags=(mark["tag_deleted"],),
        ))
        await service.delete(owner, doomed.memory.id)
        await service.add_messages(owner, mark["conversation_id_messages"], [
            Message(Role.USER, f"Please remind me that {mark['message']} is due", None,
                    mark["message_name"]),
            Message(Role.ASSISTANT, "I will remind you."),
        ])
        await service.facts.state(owner, NewFact(
            relation="likes", subject=mark["fact_subject"], object=mark["fact_object"]
        ))
        # A relation of the caller's own naming (memlane's own names are public vocabulary).
        await service.facts.state(owner, NewFact(
            relation=mark["fact_relation"].lower(), object="the harbour at dawn",
            fact_type=FactType.PREFERENCE,
        ))
        await memlane.knowledge_graph.create_entities(owner, [
            Entity(mark["kg_entity"], "person", (f"{mark['kg_observation']} plays chess",))
        ])
        await memlane.imports.import_file(
            owner, _claude_export(home / "conversations.json", mark), "claude"
        )
        # Reads that carry values: filters, a search, the topic and tag views.
        await service.list(owner, MemoryFilter(tag=mark["tag_new"]), None, 10)
        await service.list(owner, MemoryFilter(conversation_id=mark["conversation_id"]), None, 10)
        await service.search(owner, mark["search_query"], limit=5, min_similarity=None)
        await service.topics.topics(owner)
        await service.topics.topic(owner, mark["tag_new"])  # through its blind topic token
        await memlane.knowledge_graph.open_nodes(owner, [mark["kg_entity"]])
        await _provoke_errors(memlane.database.pool, mark)
        # A positive control: an API key's name is an operator's label, stored as written.
        await memlane.keys.create(owner.tenant, [Scope.READ], name=CONTROL)
        settings = await memlane.database.pool.fetch(
            "SELECT name, setting FROM pg_settings WHERE name = ANY($1::text[])",
            list(NO_VALUE_LOGGING),
        )
        assert {r["name"]: r["setting"] for r in settings} == NO_VALUE_LOGGING
        await memlane.database.pool.execute("ANALYZE")  # column statistics hold sample values
        await memlane.database.pool.execute("CHECKPOINT")
    (home / "conversations.json").unlink()  # the export itself is the user's own file


def _search(root: Path, needles: dict[str, list[bytes]]) -> tuple[int, dict[str, list[str]]]:
    """Every regular file under `root`, read whole: how many, and where each marker is."""
    scanned, hits = 0, {}
    for path in sorted(p for p in root.rglob("*") if p.is_file() and not p.is_symlink()):
        data = path.read_bytes()
        scanned += 1
        for field, forms in needles.items():
            if any(form in data for form in forms):
                hits.setdefault(field, []).append(str(path.relative_to(root)))
    return scanned, hits


async def test_no_marker_written_by_a_user_is_found_in_the_data_dir_wal_or_any_log(
    data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    mark = _markers(*FIELDS)
    caplog.set_level(logging.DEBUG)

    await _write_everything(data_dir, mark)

    # The marker as written, case-folded (the lexical and name indexes fold), and UTF-16
    # (nothing should store it so, but a scan that looks only for UTF-8 could miss it).
    needles = {
        f: [m.encode(), m.lower().encode(), m.encode("utf-16-le")] for f, m in mark.items()
    }
    scanned, hits = _search(data_dir, needles)
    logged = "\n".join(r.getMessage() for r in caplog.records)
    in_logs = [f for f, m in mark.items() if m in logged or m.lower() in logged.lower()]
    wal = list((data_dir / "pgdata" / "pg_wal").glob("0*"))
    server_log = data_dir / "pgdata" / "log"
    print(json.dumps({"markers": len(mark), "files_scanned": scanned, "wal_segments": len(wal),
                      "server_log_bytes": server_log.stat().st_size, "hits": hits,
                      "log_records": len(caplog.records), "log_hits": in_logs}))

    # The scan saw real files, written through: the control label is found where it lives.
    assert wal and server_log.stat().st_size > 0 and scanned > 100
    assert _search(data_dir, {"control": [CONTROL.encode()]})[1]["control"]
    assert hits == {}
    assert in_logs == []
