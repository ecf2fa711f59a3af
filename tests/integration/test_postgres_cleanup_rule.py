"""The cleanup rule in SQL agrees with the domain's (property test), and the statements probe the
evidence an imported memory carries: a current fact read from it, a name it mentions."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4

import asyncpg
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.domain.memories.cleanup import CleanupCandidate, CleanupRule, may_clean_up
from memlane.domain.model import Heat, MemoryType, Owner, StoredMemory
from tests.contract.builders import insert, stored

pytestmark = pytest.mark.integration

T0 = datetime(2030, 1, 1, tzinfo=UTC)
BASE_RATE = 0.05129329438755058
MAY_CLEAN_UP = "SELECT memlane_may_clean_up($1, $2, $3, $4, $5, $6, $7, $8, $9)"

instants = st.integers(-10**14, 10**14).map(lambda us: T0 + timedelta(microseconds=us))
candidates = st.builds(
    CleanupCandidate,
    importance=st.one_of(st.floats(0.0, 1.0), st.sampled_from([0.1, 0.09999999, 0.1000001])),
    pinned=st.booleans(),
    arrived_at=instants,
    imported=st.booleans(),
    carries_fact=st.booleans(),
    names_entity=st.booleans(),
    carries_key_fact=st.booleans(),
)
rules = st.builds(
    CleanupRule,
    min_importance=st.one_of(st.floats(0.0, 1.0), st.just(0.1)),
    grace_days=st.one_of(st.floats(0.0, 3650.0), st.sampled_from([0.0, 7.0, 1e-6])),
)


@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(memory=candidates, rule=rules, now=instants)
async def test_sql_may_clean_up_matches_the_domain(
    pg_pool: asyncpg.Pool, memory: CleanupCandidate, rule: CleanupRule, now: datetime
) -> None:
    async with pg_pool.acquire() as connection:
        found = await connection.fetchval(
            MAY_CLEAN_UP, memory.importance, rule.min_importance, memory.pinned,
            memory.arrived_at, rule.arrived_by(now), memory.carries_key_fact, memory.imported,
            memory.carries_fact, memory.names_entity,
        )
    assert found is may_clean_up(memory, rule, now)


async def _fact_from(connection: asyncpg.Connection, owner: Owner, memory_id: UUID,
                     current: bool) -> None:
    await connection.execute(
        "INSERT INTO facts (tenant, user_id, id, subject, object, subject_index, object_index,"
        " relation, fact_type, time_span, confidence, source_memory_id, valid_from,"
        " valid_until, created_at, updated_at) VALUES ($1, $2, $3, 's', 'o', 'si', 'oi',"
        " 'likes', 'preference', 'current', 0.9, $4, $5, $6, $5, $5)",
        owner.tenant, owner.user_id, uuid4(), memory_id, T0 - timedelta(days=900),
        None if current else T0 - timedelta(days=800),
    )


async def _mention_in(connection: asyncpg.Connection, owner: Owner, memory_id: UUID) -> None:
    entity = uuid4()
    await connection.execute(
        "INSERT INTO memory_entities (tenant, user_id, id, kind, name_index, label, weight,"
        " created_at, activated_at) VALUES ($1, $2, $3, 'person', $4, 'l', 0.5, $5, $5)",
        owner.tenant, owner.user_id, entity, uuid4().hex, T0)
    await connection.execute(
        "INSERT INTO memory_mentions (tenant, user_id, memory_id, entity_id, salience, said_at)"
        " VALUES ($1, $2, $3, $4, 0.8, $5)", owner.tenant, owner.user_id, memory_id, entity, T0)


async def test_imported_history_goes_only_without_a_current_fact_or_a_name(
    pg_pool: asyncpg.Pool, owner: Owner
) -> None:
    ports = postgres_memory_ports(pg_pool, dimension=384)

    def faded(imported: bool) -> StoredMemory:
        row = stored(owner, memory_type=MemoryType.CONTEXT, created_at=T0 - timedelta(days=900),
                     heat=Heat(0.3, 0, T0 - timedelta(days=300)))
        return replace(row, arrived_at=T0 - timedelta(days=300), imported=imported)

    with_fact, with_old_fact, with_name, bare, live_with_fact = rows = [
        faded(True), faded(True), faded(True), faded(True), faded(False)]
    await insert(ports.store, *rows)
    async with pg_pool.acquire() as connection:
        await _fact_from(connection, owner, with_fact.id, current=True)
        await _fact_from(connection, owner, with_old_fact.id, current=False)
        await _mention_in(connection, owner, with_name.id)
        await _fact_from(connection, owner, live_with_fact.id, current=True)
    rule = CleanupRule(0.1, 7)
    assert ports.faded is not None
    assert await ports.faded.owners(owner, rule, T0, BASE_RATE) == [owner]
    deleted = await ports.faded.delete(owner, rule, T0, BASE_RATE)
    gone = (with_old_fact, bare, live_with_fact)  # live memories need no evidence: faded, gone
    assert sorted(deleted) == sorted(r.id for r in gone)
    assert await ports.maintenance.cleanup(owner, rule, T0, BASE_RATE) == 0  # the rest stay
    kept = [await ports.store.get(owner, r.id) for r in (with_fact, with_name)]
    assert all(k is not None for k in kept)


async def _key_fact_from(
    connection: asyncpg.Connection, owner: Owner, memory_id: UUID, relation: str,
    fact_type: str, valid_until: datetime | None = None, superseded: bool = False,
) -> None:
    await connection.execute(
        "INSERT INTO facts (tenant, user_id, id, subject, object, subject_index, object_index,"
        " relation, fact_type, time_span, confidence, source_memory_id, valid_from,"
        " valid_until, superseded_by, created_at, updated_at) VALUES ($1, $2, $3, 's', 'o',"
        " 'si', 'oi', $4, $5, 'current', 0.9, $6, $7, $8, $9, $7, $7)",
        owner.tenant, owner.user_id, uuid4(), relation, fact_type, memory_id,
        T0 - timedelta(days=900), valid_until, uuid4() if superseded else None,
    )


async def test_a_faded_memory_that_carries_a_current_single_valued_or_safety_fact_stays(
    pg_pool: asyncpg.Pool, owner: Owner
) -> None:
    ports = postgres_memory_ports(pg_pool, dimension=384)
    rows = [stored(owner, memory_type=MemoryType.CONTEXT, created_at=T0 - timedelta(days=900),
                   heat=Heat(0.3, 0, T0 - timedelta(days=300))) for _ in range(6)]
    home, allergy, ends_later, replaced, ended, liked = rows = [
        replace(r, arrived_at=T0 - timedelta(days=300)) for r in rows]
    await insert(ports.store, *rows)
    async with pg_pool.acquire() as connection:
        await _key_fact_from(connection, owner, home.id, "lives_in", "identity")
        await _key_fact_from(connection, owner, allergy.id, "allergic_to", "constraint")
        await _key_fact_from(connection, owner, ends_later.id, "works_at", "identity",
                             valid_until=T0 + timedelta(days=1))
        await _key_fact_from(connection, owner, replaced.id, "lives_in", "identity",
                             valid_until=T0 - timedelta(days=10), superseded=True)
        await _key_fact_from(connection, owner, ended.id, "works_at", "identity",
                             valid_until=T0 - timedelta(days=1))
        await _fact_from(connection, owner, liked.id, current=True)  # likes: accumulates
    rule = CleanupRule(0.1, 7)
    assert ports.faded is not None
    deleted = await ports.faded.delete(owner, rule, T0, BASE_RATE)
    assert sorted(deleted) == sorted(r.id for r in (replaced, ended, liked))
    assert await ports.maintenance.cleanup(owner, rule, T0, BASE_RATE) == 0
    for kept in (home, allergy, ends_later):
        assert await ports.store.get(owner, kept.id) is not None


async def test_the_migration_marks_what_earlier_versions_imported(database_url: str) -> None:
    """Before migration 0163 an import's mark was sealed in its metadata alone; its heat (the
    curve started at the chat's own time, the row written later) is what the migration reads."""
    from memlane.adapters.postgres.migrations import apply_migrations, load_migrations
    from tests.conftest import scratch_database

    insert_memory = (
        "INSERT INTO memories (tenant, user_id, id, memory_type, content, summary, created_at,"
        " updated_at) VALUES ('t', 'u', $1, 'context', '\\x00', '\\x00', $2, $3)")
    insert_heat = (
        "INSERT INTO memory_heat (tenant, user_id, id, memory_type, importance,"
        " base_importance, accessed_at) VALUES ('t', 'u', $1, 'context', 0.3, 0.3, $2)")
    said, imported_at = T0 - timedelta(days=900), T0
    rows = {  # id -> (created_at, updated_at, accessed_at)
        uuid4(): (said, imported_at, said),  # imported: dated when said, written later
        uuid4(): (imported_at, imported_at, imported_at),  # written live
        uuid4(): (said, imported_at, imported_at - timedelta(days=3)),  # recalled since
    }
    async with scratch_database(database_url, migrated=False) as url:
        connection = await asyncpg.connect(url)
        try:
            everything = load_migrations()
            await apply_migrations(connection, [m for m in everything if m.version < 163])
            for memory_id, (created, updated, accessed) in rows.items():
                await connection.execute(insert_memory, memory_id, created, updated)
                await connection.execute(insert_heat, memory_id, accessed)
            await apply_migrations(connection, [m for m in everything if m.version >= 163])
            marked = {r["id"]: r["imported"] for r in await connection.fetch(
                "SELECT id, imported FROM memory_heat WHERE tenant = 't'")}
        finally:
            await connection.close()
    assert list(marked[i] for i in rows) == [True, False, False]
