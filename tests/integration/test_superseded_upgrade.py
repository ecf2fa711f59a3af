"""The upgrade to the superseded marker (migrations 0180, 0181) on data an older memlane left."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4

import asyncpg
import pytest

from memlane.adapters.postgres.migrations import apply_migrations, load_migrations
from tests.conftest import scratch_database

pytestmark = pytest.mark.integration

T0 = datetime(2031, 1, 1, tzinfo=UTC)
OWNER = ("t", "ana")
FIRST_OF_ISSUE_31 = 180


class OldStore:
    """Rows written as memlane before 0180 wrote them (the service of today cannot)."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self.db = connection
        self.seq = 0

    async def memory(self, kind: str = "fact", base: float = 0.6, days: int = 0) -> UUID:
        memory_id, at = uuid4(), T0 + timedelta(days=days)
        await self.db.execute(
            "INSERT INTO memories (tenant, user_id, id, memory_type, content, summary, "
            "created_at, updated_at) VALUES ($1, $2, $3, $4, 'x', 'x', $5, $5)",
            *OWNER, memory_id, kind, at)
        await self.db.execute(
            "INSERT INTO memory_heat (tenant, user_id, id, memory_type, importance, "
            "base_importance, accessed_at) VALUES ($1, $2, $3, $4, $5, $5, $6)",
            *OWNER, memory_id, kind, base, at)
        return memory_id

    async def fact(self, source: UUID | None, days: int = 0) -> UUID:
        fact_id, at = uuid4(), T0 + timedelta(days=days)
        await self.db.execute(
            "INSERT INTO facts (tenant, user_id, id, subject, object, subject_index, "
            "object_index, relation, fact_type, time_span, confidence, source_memory_id, "
            "valid_from, created_at, updated_at) VALUES ($1, $2, $3, 'u', 'o', 's', $6, "
            "'lives_in', 'identity', 'current', 0.9, $4, $5, $5, $5)",
            *OWNER, fact_id, source, at, str(fact_id))
        return fact_id

    async def event(
        self, subject_kind: str, subject: UUID, kind: str, related: UUID | None = None,
        actor: str = "key:1", days: int = 0,
    ) -> None:
        self.seq += 1
        await self.db.execute(
            "INSERT INTO audit_events (tenant, user_id, seq, id, subject_kind, subject_id, "
            "related_id, kind, actor, at, body_digest, prev_hash, hash) VALUES ($1, $2, $3, "
            "$4, $5, $6, $7, $8, $9, $10, '\\x00', '\\x00', '\\x00')",
            *OWNER, self.seq, uuid4(), subject_kind, subject, related, kind, actor,
            T0 + timedelta(days=days))

    async def edge(self, source: UUID, target: UUID, kind: str = "supersedes") -> None:
        await self.db.execute(
            "INSERT INTO memory_edges (tenant, user_id, source, target, kind, weight, "
            "created_at, activated_at) VALUES ($1, $2, $3, $4, $5, 1.0, $6, $6)",
            *OWNER, source, target, kind, T0)

    async def delete_memory(self, memory_id: UUID, actor: str) -> None:
        await self.db.execute("DELETE FROM memory_heat WHERE id = $1", memory_id)
        await self.db.execute("DELETE FROM memories WHERE id = $1", memory_id)
        await self.event("memory", memory_id, "deleted", actor=actor, days=30)


async def _row(db: asyncpg.Connection, table: str, row_id: UUID) -> asyncpg.Record:
    found = await db.fetchrow(f"SELECT * FROM {table} WHERE id = $1", row_id)
    assert found is not None
    return found


async def test_the_upgrade_marks_repairs_and_retypes_what_older_versions_left(
    database_url: str,
) -> None:
    async with scratch_database(database_url, migrated=False) as url:
        await _upgrade_older_data(url)


async def _upgrade_older_data(url: str) -> None:
    db = await asyncpg.connect(url)
    try:
        migrations = load_migrations()
        await apply_migrations(db, [m for m in migrations if m.version < FIRST_OF_ISSUE_31])
        old = OldStore(db)
        # An edge still says it: Berlin (fact, 0.6) replaced by "I moved to Lisbon" (context).
        berlin, lisbon = await old.memory(), await old.memory("context", 0.3, days=1)
        await old.edge(lisbon, berlin)
        # Cleanup took Porto, which had replaced Rome: the old version revived Rome's fact.
        rome, porto = await old.memory(), await old.memory("context", 0.25, days=2)
        rome_fact, porto_fact = await old.fact(rome), await old.fact(porto, days=2)
        await old.event("fact", rome_fact, "created", related=rome)
        await old.event("fact", porto_fact, "created", related=porto, days=2)
        await old.event("fact", rome_fact, "superseded", related=porto_fact, days=2)
        await old.event("memory", rome, "superseded", related=porto, days=2)
        await old.delete_memory(porto, "system:decay")  # the old trigger: rome_fact current
        # A person deleted Oslo's replacement: documented then, it stays current.
        oslo, bergen = await old.memory(), await old.memory("context", days=3)
        oslo_fact, bergen_fact = await old.fact(oslo), await old.fact(bergen, days=3)
        await old.event("fact", bergen_fact, "created", related=bergen, days=3)
        await old.event("fact", oslo_fact, "superseded", related=bergen_fact, days=3)
        await old.event("memory", oslo, "superseded", related=bergen, days=3)
        await old.delete_memory(bergen, "key:7")
        # Graph memory off: only the facts say Vigo replaced Leon.
        leon, vigo = await old.memory(), await old.memory("context", 0.2, days=4)
        leon_fact, vigo_fact = await old.fact(leon), await old.fact(vigo, days=4)
        await db.execute("UPDATE facts SET superseded_by = $1, valid_until = $2 WHERE id = $3",
                         vigo_fact, T0 + timedelta(days=4), leon_fact)
        # A consolidation replaces its sources without correcting them.
        note, summary = await old.memory("context"), await old.memory("context", days=5)
        await old.edge(summary, note)
        await old.event("memory", summary, "consolidated")

        await apply_migrations(db, migrations)
        assert (await _row(db, "memory_heat", berlin))["superseded_by"] == lisbon
        kept = await _row(db, "memory_heat", rome)
        assert (kept["superseded_by"], kept["valid_until"]) == (porto, T0 + timedelta(days=2))
        repaired = await _row(db, "facts", rome_fact)
        assert repaired["superseded_by"] == porto_fact and repaired["valid_until"] is not None
        assert (await _row(db, "facts", oslo_fact))["superseded_by"] is None
        assert (await _row(db, "memory_heat", oslo))["valid_until"] is None
        assert (await _row(db, "memory_heat", leon))["superseded_by"] == vigo
        for correction, replaced_base in ((lisbon, 0.6), (vigo, 0.6)):
            heat = await _row(db, "memory_heat", correction)
            wide = await _row(db, "memories", correction)
            assert heat["memory_type"] == wide["memory_type"] == "correction"
            assert heat["base_importance"] == replaced_base
        assert (await _row(db, "memories", summary))["memory_type"] == "context"
        assert (await _row(db, "memory_heat", note))["superseded_by"] == summary
    finally:
        await db.close()
