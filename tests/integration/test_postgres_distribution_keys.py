"""The owner key in the catalog (docs/scaling.md): every owner table stores it and carries it
in every primary key, unique index and foreign key; only the tables named in
adapters/postgres/distribution.py do not, each with its reason."""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import UTC, datetime
from uuid import uuid4

import asyncpg
import pytest

from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.facts.heuristic import HeuristicFactExtractor
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.distribution import (
    OWNER_KEY,
    OWNER_KEY_EXPRESSION,
    SHARED_TABLES,
    Placement,
    SharedTable,
)
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

pytestmark = pytest.mark.integration

# The schema's own tables: not the extensions' (pgvector has none today, Citus has some).
TABLES = """
SELECT c.oid, c.relname FROM pg_class AS c
WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
  AND NOT c.relispartition
  AND NOT EXISTS (SELECT 1 FROM pg_depend AS d WHERE d.classid = 'pg_class'::regclass
                  AND d.objid = c.oid AND d.deptype = 'e')
"""
COLUMNS = """
SELECT a.attname, a.attgenerated::text, pg_get_expr(d.adbin, d.adrelid) AS expression
FROM pg_attribute AS a
LEFT JOIN pg_attrdef AS d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped
"""
# Key columns only (not an index's INCLUDE columns); an expression's place is NULL.
UNIQUE_KEYS = """
SELECT x.relname AS name, array_agg(a.attname ORDER BY k.n) AS columns
FROM pg_index AS i
JOIN pg_class AS x ON x.oid = i.indexrelid
CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)
LEFT JOIN pg_attribute AS a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
WHERE i.indrelid = $1 AND i.indisunique AND k.n <= i.indnkeyatts
GROUP BY x.relname
"""
FOREIGN_KEYS = """
SELECT conname,
       ARRAY(SELECT attname FROM pg_attribute WHERE attrelid = conrelid
             AND attnum = ANY(conkey)) AS columns,
       ARRAY(SELECT attname FROM pg_attribute WHERE attrelid = confrelid
             AND attnum = ANY(confkey)) AS referenced
FROM pg_constraint WHERE conrelid = $1 AND contype = 'f'
"""


async def _owner_table_problems(
    connection: asyncpg.Connection, name: str, oid: int
) -> list[str]:
    """What stops `name` from being distributed by the owner key, [] when nothing."""
    columns = {r["attname"]: r for r in await connection.fetch(COLUMNS, oid)}
    problems = []
    if OWNER_KEY not in columns:
        problems.append(f"{name} has no {OWNER_KEY} column")
    elif {"tenant", "user_id"} <= columns.keys() and (
        columns[OWNER_KEY]["attgenerated"] != "s"
        or columns[OWNER_KEY]["expression"] != OWNER_KEY_EXPRESSION
    ):
        problems.append(f"{name}.{OWNER_KEY} is not stored as {OWNER_KEY_EXPRESSION}")
    keys = await connection.fetch(UNIQUE_KEYS, oid)
    problems += [
        f"{name}: unique index {k['name']} {list(k['columns'])} lacks {OWNER_KEY}"
        for k in keys if OWNER_KEY not in k["columns"]
    ]
    if not keys:
        problems.append(f"{name} has no primary key")
    problems += [
        f"{name}: foreign key {f['conname']} lacks {OWNER_KEY} on one side"
        for f in await connection.fetch(FOREIGN_KEYS, oid)
        if OWNER_KEY not in f["columns"] or OWNER_KEY not in f["referenced"]
    ]
    return problems


async def distribution_problems(
    connection: asyncpg.Connection, shared: Mapping[str, SharedTable] = SHARED_TABLES
) -> list[str]:
    """Every reason the catalog could not be distributed by owner as docs/scaling.md plans."""
    tables = {r["relname"]: r["oid"] for r in await connection.fetch(TABLES)}
    problems = [f"{name} is listed as shared but does not exist" for name in shared
                if name not in tables]
    for name, oid in sorted(tables.items()):
        entry = shared.get(name)
        if entry is None:
            problems += await _owner_table_problems(connection, name, oid)
            continue
        if not entry.reason.strip():
            problems.append(f"{name} is listed as shared without a reason")
        names = {r["attname"] for r in await connection.fetch(COLUMNS, oid)}
        if {"tenant", "user_id"} <= names and not entry.owner_columns.strip():
            problems.append(f"{name} has tenant and user_id but is listed as shared "
                            "without saying why its rows are not an owner's")
    return problems


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
