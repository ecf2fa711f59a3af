"""The owner key in the catalog (docs/scaling.md): every owner table stores it and carries it
in every primary key, unique index and foreign key; only the tables named in
adapters/postgres/distribution.py do not, each with its reason."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from uuid import uuid4

import asyncpg
import pytest

from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.facts.heuristic import HeuristicFactExtractor
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.distribution import SHARED_TABLES, Placement, SharedTable
from memlane.adapters.postgres.entities.adapter import PostgresEntityAdapter
from memlane.adapters.postgres.facts.adapter import PostgresFactAdapter
from memlane.adapters.postgres.graph.adapter import PostgresGraphAdapter
from memlane.adapters.postgres.memories.focus import write_touches
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.adapters.postgres.security.audit import postgres_audit_ports
from memlane.adapters.postgres.security.data_keys import PostgresDataKeyAdapter
from memlane.composition.services import memory_service
from memlane.domain.model import NewMemory, Owner
from memlane.domain.policy import MemoryPolicy
from memlane.domain.security import WrappedKey
from memlane.ports.facts.store import FactPorts
from tests.integration.distribution_catalog import (
    TABLES,
    distribution_problems,
    unmatched_arbiters,
    upserts,
)

pytestmark = pytest.mark.integration

async def test_every_owner_table_carries_the_owner_key_in_each_of_its_keys(
    fresh_database_url: str,
) -> None:
    connection = await asyncpg.connect(fresh_database_url)
    try:
        assert await distribution_problems(connection) == []
    finally:
        await connection.close()


async def test_a_table_keyed_without_the_owner_key_or_listed_without_reason_is_named(
    fresh_database_url: str,
) -> None:
    connection = await asyncpg.connect(fresh_database_url)
    try:
        await connection.execute(
            "CREATE TABLE owner_notes (tenant text, user_id text, id uuid, "
            "PRIMARY KEY (tenant, user_id, id))")
        await connection.execute(
            "CREATE TABLE keyed_notes (tenant text, user_id text, id uuid UNIQUE, owner_key "
            "bigint GENERATED ALWAYS AS (memlane_owner_hash(tenant, user_id)) STORED, "
            "PRIMARY KEY (tenant, user_id, owner_key))")
        listed = {**SHARED_TABLES, "import_ledger": SharedTable(Placement.REFERENCE, "why")}
        problems = await distribution_problems(connection, listed)
    finally:
        await connection.close()
    assert problems == [
        "import_ledger has tenant and user_id but is listed as shared without saying why "
        "its rows are not an owner's",
        "keyed_notes: unique index keyed_notes_id_key ['id'] lacks owner_key",
        "owner_notes has no owner_key column",
        "owner_notes: unique index owner_notes_pkey ['tenant', 'user_id', 'id'] lacks "
        "owner_key",
    ]


ROOT = Path(__file__).resolve().parents[2]


def _sql_sources() -> dict[str, str]:
    """Every Python file of src/ and bench/ that holds an upsert, by its path."""
    found = {}
    for path in sorted([*ROOT.glob("src/**/*.py"), *ROOT.glob("bench/**/*.py")]):
        text = path.read_text(encoding="utf-8")
        if "ON CONFLICT" in text.upper():
            found[str(path.relative_to(ROOT))] = text
    return found


async def test_every_on_conflict_target_names_a_unique_index_of_its_table(
    fresh_database_url: str,
) -> None:
    sources = _sql_sources()
    assert sum(len(upserts(text)) for text in sources.values()) >= 8  # the scan finds them
    connection = await asyncpg.connect(fresh_database_url)
    try:
        assert await unmatched_arbiters(connection, sources) == []
        stale = {"old.py": "INSERT INTO facts AS f (tenant) SELECT 1\nON CONFLICT (tenant, "
                           "user_id, id) DO NOTHING"}
        assert await unmatched_arbiters(connection, stale) == [
            "old.py: ON CONFLICT (id, tenant, user_id) matches no unique index of facts"]
    finally:
        await connection.close()


NOW = datetime(2031, 5, 4, tzinfo=UTC)
TEXTS = [
    "My sister Lena lives in Berlin and plays the cello",
    "Lena is coming to visit us in Hamburg next week",
    "I work at Siemens as a data engineer",
]


async def test_the_rows_a_write_leaves_carry_the_owner_hash_of_their_owner(
    fresh_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter
) -> None:
    owner = Owner(f"tenant-{uuid4().hex[:8]}", f"user-{uuid4().hex[:8]}")
    service = memory_service(
        postgres_memory_ports(fresh_pool, dimension=embedder.dimension), embedder,
        XChaChaEncryptionAdapter(os.urandom(32)), SnowballKeywordAdapter(), MemoryPolicy(),
        lambda: NOW, graph=PostgresGraphAdapter(fresh_pool),
        audit=postgres_audit_ports(fresh_pool), entities=PostgresEntityAdapter(fresh_pool),
        facts=FactPorts(PostgresFactAdapter(fresh_pool), HeuristicFactExtractor()),
    )
    written = await service.remember_many(owner, [NewMemory(t) for t in TEXTS])
    await PostgresDataKeyAdapter(fresh_pool).create(
        [WrappedKey(owner, uuid4(), "00", b"\x00" * 72)])
    async with fresh_pool.acquire() as connection:
        await write_touches(connection, [
            (owner.tenant, owner.user_id, "chat", r.memory.id, NOW) for r in written])
        expected = await connection.fetchval(
            "SELECT memlane_owner_hash($1, $2)", owner.tenant, owner.user_id)
        tables = [r["relname"] for r in await connection.fetch(TABLES)
                  if r["relname"] not in SHARED_TABLES and r["relname"] != "memory_postings"]
        keys = {t: {r[0] for r in await connection.fetch(
            f"SELECT DISTINCT owner_key FROM {t} WHERE tenant = $1 AND user_id = $2",
            owner.tenant, owner.user_id)} for t in tables}
        # The postings' key is computed apart, by the insert trigger (migration 0050).
        posted = await connection.fetchval(
            "SELECT DISTINCT p.owner_key FROM memory_postings AS p JOIN memories AS m "
            "ON m.id = p.id WHERE m.tenant = $1 AND m.user_id = $2",
            owner.tenant, owner.user_id)
    written_to = {t for t, found in keys.items() if found}
    assert written_to >= {
        "memories", "memory_heat", "memory_terms", "memory_owner_stats", "memory_edges",
        "memory_entities", "memory_mentions", "facts", "audit_events", "data_keys",
        "conversation_focus",
    }
    assert all(found == {expected} for found in keys.values() if found)
    assert posted == expected


async def test_a_write_that_names_the_owner_key_is_refused(pg_pool: asyncpg.Pool) -> None:
    with pytest.raises(asyncpg.GeneratedAlwaysError):
        await pg_pool.execute(
            "INSERT INTO import_ledger (tenant, user_id, message_key, owner_key) "
            "VALUES ('t', 'u', 'k', 42)")
