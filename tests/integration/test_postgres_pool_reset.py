"""The pool skips asyncpg's per-release reset, yet no connection comes back with state."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest

from memlane.adapters.postgres import leader as leader_module
from memlane.adapters.postgres.leader import PostgresLeaderLockAdapter
from memlane.adapters.postgres.pool import create_pool

pytestmark = pytest.mark.integration

LOCK_KEY = 0x6D656D6C616E6574  # not the maintenance lock: this test owns it


@pytest.fixture
async def one_connection_pool(migrated_database_url: str) -> AsyncIterator[asyncpg.Pool]:
    # One connection, so the next acquire gets the very connection just released.
    pool = await create_pool(migrated_database_url, min_size=1, max_size=1)
    try:
        yield pool
    finally:
        await pool.close()


async def test_a_connection_released_inside_a_transaction_comes_back_outside_one(
    one_connection_pool: asyncpg.Pool,
) -> None:
    connection = await one_connection_pool.acquire()
    await connection.execute("BEGIN")
    await connection.execute("CREATE TEMP TABLE left_behind (x int)")
    await one_connection_pool.release(connection)
    async with one_connection_pool.acquire() as again:
        assert not again.is_in_transaction()
        assert await again.fetchval("SELECT to_regclass('pg_temp.left_behind')") is None


async def test_the_leader_lock_is_free_again_after_the_holder_leaves(
    pg_pool: asyncpg.Pool,
) -> None:
    lock = PostgresLeaderLockAdapter(pg_pool, lock_key=LOCK_KEY)
    async with lock.hold() as leading:
        assert leading
        async with lock.hold() as second:
            assert not second  # another connection of the same pool
    async with lock.hold() as leading_again:
        assert leading_again


async def test_a_lock_that_cannot_be_released_leaves_with_its_connection(
    pg_pool: asyncpg.Pool, migrated_database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    lock = PostgresLeaderLockAdapter(pg_pool, lock_key=LOCK_KEY)
    monkeypatch.setattr(leader_module, "UNLOCK", "SELECT 1 / 0 = $1")
    async with lock.hold() as leading:
        assert leading
    # Seen from outside the pool (advisory locks are re-entrant within one session): the
    # server drops the lock when it notices the closed connection, soon but not at once.
    outsider = await asyncpg.connect(migrated_database_url)
    try:
        for _ in range(50):
            if await outsider.fetchval("SELECT pg_try_advisory_lock($1)", LOCK_KEY):
                await outsider.fetchval("SELECT pg_advisory_unlock($1)", LOCK_KEY)
                return
            await asyncio.sleep(0.1)
    finally:
        await outsider.close()
    pytest.fail("the lock outlived the connection that could not release it")
