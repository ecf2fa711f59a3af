"""The upgrade to the stored owner key (migration 0230) on rows an older memlane left: every
row kept as it was, each with its owner's key, the mentions' foreign key still in force, the
statistics upkeep writing through the new keys; and an owner table the migration did not
know by name keyed the same way."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID, uuid4

import asyncpg
import pytest

from memlane.adapters.postgres.distribution import SHARED_TABLES
from memlane.adapters.postgres.migrations import apply_migrations, load_migrations
from tests.conftest import scratch_database
from tests.integration.distribution_catalog import distribution_problems

pytestmark = pytest.mark.integration

FIRST_WITH_OWNER_KEY = 230
AT = datetime(2030, 6, 1, tzinfo=UTC)
OWNERS = [("acme", "ana"), ("acme", "bo")]

MEMORY = """
INSERT INTO memories (tenant, user_id, id, memory_type, content, summary, keywords,
                      created_at, updated_at)
VALUES ($1, $2, $3, 'fact', 'x', 'x', $4::tsvector, $5, $5)
"""
HEAT = """
INSERT INTO memory_heat (tenant, user_id, id, memory_type, importance, base_importance,
                         accessed_at)
VALUES ($1, $2, $3, 'fact', 0.5, 0.5, $4)
"""
EDGE = """
INSERT INTO memory_edges (tenant, user_id, source, target, kind, weight, created_at,
                          activated_at)
VALUES ($1, $2, $3, $4, 'semantic', 0.5, $5, $5)
"""
ENTITY = """
INSERT INTO memory_entities (tenant, user_id, id, kind, name_index, label, weight, created_at,
                             activated_at)
VALUES ($1, $2, $3, 'person', 'n-lena', 'x', 0.5, $4, $4)
"""
MENTION = """
INSERT INTO memory_mentions (tenant, user_id, memory_id, entity_id, salience, said_at)
VALUES ($1, $2, $3, $4, 0.5, $5)
"""
FACT = """
INSERT INTO facts (tenant, user_id, id, subject, object, subject_index, object_index, relation,
                   fact_type, time_span, confidence, source_memory_id, valid_from, created_at,
                   updated_at)
VALUES ($1, $2, $3, 'u', 'o', 's', 'o', 'lives_in', 'identity', 'current', 0.9, $4, $5, $5, $5)
"""
EVENT = """
INSERT INTO audit_events (tenant, user_id, seq, id, subject_kind, subject_id, kind, actor, at,
                          body_digest, prev_hash, hash)
VALUES ($1, $2, 1, $3, 'memory', $4, 'created', 'key:1', $5, '\\x00', '\\x00', '\\x00')
"""
DATA_KEY = """
INSERT INTO data_keys (tenant, user_id, id, master_key_id, wrapped) VALUES ($1, $2, $3, 'm', 'w')
"""
LEDGER = "INSERT INTO import_ledger (tenant, user_id, message_key) VALUES ($1, $2, 'k1')"
QUARANTINED = """
INSERT INTO memory_quarantine (tenant, user_id, id, unreadable, quarantined_at, memory_type,
                               content, summary, tags, metadata, pinned, created_at, updated_at)
VALUES ($1, $2, $3, '{content}', $4, 'fact', 'x', 'x', '{}', '{}', false, $4, $4)
"""
FOCUS = """
INSERT INTO conversation_focus (tenant, user_id, conversation, memory_id, touches, last_touched)
VALUES ($1, $2, 'chat', $3, 2, $4)
"""
WATERMARK = """
INSERT INTO memory_sleep_watermarks (tenant, user_id, through_at, through_id)
VALUES ($1, $2, $3, $4)
"""
OWNER_TABLES = """
SELECT c.relname FROM pg_class AS c
JOIN pg_attribute AS t ON t.attrelid = c.oid AND t.attname = 'tenant'
JOIN pg_attribute AS u ON u.attrelid = c.oid AND u.attname = 'user_id'
WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
ORDER BY 1
"""


async def _old_rows(db: asyncpg.Connection, tenant: str, user: str) -> UUID:
    """One row of every owner table for the owner, as the schema before 0230 took them."""
    first, second, entity = uuid4(), uuid4(), uuid4()
    for memory_id, terms in ((first, "lena berlin"), (second, "lena cello")):
        await db.execute(MEMORY, tenant, user, memory_id, terms, AT)
        await db.execute(HEAT, tenant, user, memory_id, AT)
    await db.execute(EDGE, tenant, user, first, second, AT)
    await db.execute(ENTITY, tenant, user, entity, AT)
    await db.execute(MENTION, tenant, user, first, entity, AT)
    await db.execute(FACT, tenant, user, uuid4(), first, AT)
    await db.execute(EVENT, tenant, user, uuid4(), first, AT)
    await db.execute(DATA_KEY, tenant, user, uuid4())
    await db.execute(LEDGER, tenant, user)
    await db.execute(QUARANTINED, tenant, user, uuid4(), AT)
    await db.execute(FOCUS, tenant, user, first, AT)
    await db.execute(WATERMARK, tenant, user, AT, second)
    return entity


async def _contents(db: asyncpg.Connection, tables: list[str]) -> dict[str, list[str]]:
    """Each table's rows as text, without the owner key, in a fixed order."""
    return {t: [r[0] for r in await db.fetch(
        f"SELECT (to_jsonb(x) - 'owner_key')::text AS row FROM {t} AS x ORDER BY 1")]
        for t in tables}


async def test_the_upgrade_keeps_every_row_and_gives_each_its_owner_key(
    database_url: str,
) -> None:
    async with scratch_database(database_url, migrated=False) as url:
        db = await asyncpg.connect(url)
        try:
            migrations = load_migrations()
            await apply_migrations(
                db, [m for m in migrations if m.version < FIRST_WITH_OWNER_KEY])
            await db.execute(DATA_KEY, "", "", uuid4())  # the installation's root key
            entities = [await _old_rows(db, *owner) for owner in OWNERS]
            tables = [r[0] for r in await db.fetch(OWNER_TABLES)
                      if r[0] not in SHARED_TABLES]
            before = await _contents(db, tables)

            await apply_migrations(db, migrations)

            assert await _contents(db, tables) == before
            assert all(before[t] for t in tables)  # every owner table had rows to carry
            for table in tables:
                assert await db.fetchval(
                    f"SELECT count(*) FROM {table} "
                    "WHERE owner_key IS DISTINCT FROM memlane_owner_hash(tenant, user_id)") == 0
            await _check_keys_in_force(db, entities[0])
        finally:
            await db.close()


async def _check_keys_in_force(db: asyncpg.Connection, entity: UUID) -> None:
    tenant, user = OWNERS[0]
    with pytest.raises(asyncpg.ForeignKeyViolationError):
        await db.execute(MENTION, tenant, user, uuid4(), uuid4(), AT)
    with pytest.raises(asyncpg.ForeignKeyViolationError):  # the entity is another owner's
        await db.execute(MENTION, *OWNERS[1], uuid4(), entity, AT)
    await db.execute("DELETE FROM memory_entities WHERE id = $1", entity)
    assert await db.fetchval(
        "SELECT count(*) FROM memory_mentions WHERE entity_id = $1", entity) == 0
    # Term statistics are kept through 0230's arbiters: one more memory holding "lena".
    await db.execute(MEMORY, tenant, user, uuid4(), "lena", AT)
    assert await db.fetchval(
        "SELECT df FROM memory_terms WHERE tenant = $1 AND user_id = $2 AND term = 'lena'",
        tenant, user) == 3
    assert await db.fetchval(
        "SELECT n FROM memory_owner_stats WHERE tenant = $1 AND user_id = $2",
        tenant, user) == 3


async def test_an_owner_table_an_earlier_migration_added_gets_the_key_in_its_keys_too(
    database_url: str,
) -> None:
    async with scratch_database(database_url, migrated=False) as url:
        db = await asyncpg.connect(url)
        try:
            migrations = load_migrations()
            await apply_migrations(
                db, [m for m in migrations if m.version < FIRST_WITH_OWNER_KEY])
            # As another branch's migration might: a foreign key to memories, a partial
            # unique index that backs no constraint.
            await db.execute("""
                CREATE TABLE memory_notes (
                    tenant text NOT NULL, user_id text NOT NULL, memory_id uuid NOT NULL,
                    ord smallint NOT NULL, PRIMARY KEY (tenant, user_id, memory_id, ord),
                    FOREIGN KEY (tenant, user_id, memory_id)
                        REFERENCES memories (tenant, user_id, id) ON DELETE CASCADE);
                CREATE UNIQUE INDEX memory_notes_first_idx ON memory_notes (tenant, user_id, ord)
                    WHERE ord = 1""")
            memory_id = uuid4()
            await db.execute(MEMORY, *OWNERS[0], memory_id, "note", AT)
            await db.execute("INSERT INTO memory_notes VALUES ($1, $2, $3, 1)",
                             *OWNERS[0], memory_id)

            await apply_migrations(db, migrations)

            assert await distribution_problems(db) == []
            assert await db.fetchval(
                "SELECT pg_get_indexdef('memory_notes_first_idx'::regclass)"
            ) == ("CREATE UNIQUE INDEX memory_notes_first_idx ON public.memory_notes "
                  "USING btree (tenant, user_id, ord, owner_key) WHERE (ord = 1)")
            await db.execute("DELETE FROM memories WHERE id = $1", memory_id)
            assert await db.fetchval("SELECT count(*) FROM memory_notes") == 0
        finally:
            await db.close()
