"""The migration runner: applies every file once, in order, safely from two processes at once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from urllib.parse import urlsplit, urlunsplit
from uuid import uuid4

import asyncpg
import pytest

from memlane.adapters.postgres.migrations import (
    Migration,
    MigrationError,
    apply_migrations,
    load_migrations,
    migrate,
    pending_migrations,
)
from memlane.adapters.postgres.pool import create_pool
from memlane.adapters.postgres.reembed import reset_embeddings

pytestmark = pytest.mark.integration


def _with_database(dsn: str, database: str) -> str:
    parts = urlsplit(dsn)
    return urlunsplit(parts._replace(path=f"/{database}"))


@pytest.fixture
async def fresh_database_url(migrated_database_url: str) -> AsyncIterator[str]:
    """An empty database on the test server, dropped afterwards."""
    name = f"memlane_migrations_{uuid4().hex[:10]}"
    admin = await asyncpg.connect(migrated_database_url)
    try:
        await admin.execute(f"CREATE DATABASE {name}")
        yield _with_database(migrated_database_url, name)
    finally:
        await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        await admin.close()


async def _ledger(dsn: str) -> list[tuple[int, str]]:
    connection = await asyncpg.connect(dsn)
    try:
        rows = await connection.fetch("SELECT version, name FROM schema_migrations ORDER BY 1")
    finally:
        await connection.close()
    return [(r["version"], r["name"]) for r in rows]


def test_migration_files_are_numbered_and_ordered() -> None:
    migrations = load_migrations()
    versions = [m.version for m in migrations]
    assert versions == sorted(set(versions))
    assert migrations[0].name == "0001_create_memories.sql"


async def test_migrating_a_fresh_database_applies_every_file_in_order(
    fresh_database_url: str,
) -> None:
    applied = await migrate(fresh_database_url)
    expected = [(m.version, m.name) for m in load_migrations()]
    assert [(m.version, m.name) for m in applied] == expected
    assert await _ledger(fresh_database_url) == expected


async def test_migrating_twice_is_a_no_op(fresh_database_url: str) -> None:
    await migrate(fresh_database_url)
    assert await migrate(fresh_database_url) == []
    assert len(await _ledger(fresh_database_url)) == len(load_migrations())


async def test_two_runners_at_once_apply_each_migration_exactly_once(
    fresh_database_url: str,
) -> None:
    first, second = await asyncio.gather(migrate(fresh_database_url), migrate(fresh_database_url))
    assert sorted([len(first), len(second)]) == [0, len(load_migrations())]
    assert await _ledger(fresh_database_url) == [(m.version, m.name) for m in load_migrations()]


async def test_a_changed_migration_is_a_clear_error(fresh_database_url: str) -> None:
    await migrate(fresh_database_url)
    original = load_migrations()[0]
    edited = Migration(original.version, original.name, original.sql + "\n-- edited\n")
    connection = await asyncpg.connect(fresh_database_url)
    try:
        with pytest.raises(MigrationError, match=r"0001_create_memories\.sql was changed"):
            await apply_migrations(connection, [edited])
        # The advisory lock was released despite the error: another session gets through.
        assert await asyncio.wait_for(migrate(fresh_database_url), timeout=10) == []
    finally:
        await connection.close()


async def test_a_failing_migration_leaves_nothing_half_applied(fresh_database_url: str) -> None:
    broken = Migration(9001, "9001_create_broken.sql", "CREATE TABLE half (x int); SELECT 1/0;")
    connection = await asyncpg.connect(fresh_database_url)
    try:
        with pytest.raises(asyncpg.DivisionByZeroError):
            await apply_migrations(connection, [broken])
        assert await connection.fetchval("SELECT to_regclass('half')") is None
        assert await connection.fetchval("SELECT count(*) FROM schema_migrations") == 0
    finally:
        await connection.close()


async def test_pending_migrations_are_read_without_applying_or_creating_anything(
    fresh_database_url: str,
) -> None:
    everything = [m.name for m in load_migrations()]
    assert [m.name for m in await pending_migrations(fresh_database_url)] == everything
    connection = await asyncpg.connect(fresh_database_url)
    try:
        assert await connection.fetchval("SELECT to_regclass('schema_migrations')") is None
        await apply_migrations(connection, load_migrations()[:3])
    finally:
        await connection.close()
    assert [m.name for m in await pending_migrations(fresh_database_url)] == everything[3:]
    assert len(await _ledger(fresh_database_url)) == 3  # reading applied nothing
    await migrate(fresh_database_url)
    assert await pending_migrations(fresh_database_url) == []


EMBEDDING_STORAGE = """
SELECT a.attstorage::text FROM pg_attribute AS a
WHERE a.attrelid = 'memories'::regclass AND a.attname = 'embedding'
"""


async def test_embeddings_stay_in_the_row_after_migrating_and_after_a_resize(
    fresh_database_url: str,
) -> None:
    await migrate(fresh_database_url)
    pool = await create_pool(fresh_database_url, min_size=1, max_size=2)
    try:
        # 'm' (MAIN): in the row unless it cannot fit; pgvector's default 'e' moved every
        # 384-d embedding to the toast table.
        assert await pool.fetchval(EMBEDDING_STORAGE) == "m"
        await reset_embeddings(pool, 768)
        assert await pool.fetchval(EMBEDDING_STORAGE) == "m"
    finally:
        await pool.close()
