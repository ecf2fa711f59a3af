"""One classification of driver failures: a lost database is StorageUnavailable everywhere."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from memlane.adapters.postgres.errors import is_connection_error, storage_errors
from memlane.adapters.postgres.pool import connection_from
from memlane.adapters.postgres.readiness import database_ready
from memlane.domain.errors import StorageUnavailable

pytestmark = pytest.mark.integration


@pytest.mark.parametrize(
    "error",
    [
        ConnectionRefusedError(),
        TimeoutError(),
        asyncpg.InterfaceError("pool is closing"),
        asyncpg.InterfaceError("cannot call Connection.fetch(): connection is closed"),
        asyncpg.CannotConnectNowError("starting"),
    ],
)
async def test_each_connection_error_becomes_storage_unavailable_naming_the_class(
    error: BaseException,
) -> None:
    assert is_connection_error(error)
    with pytest.raises(StorageUnavailable) as raised:
        async with storage_errors("testing"):
            raise error
    assert type(error).__name__ in str(raised.value)
    assert "while testing" in str(raised.value)


@pytest.mark.parametrize("error", [
    asyncpg.DataError("invalid input for a vector"),
    asyncpg.InterfaceError("cannot perform operation: another operation is in progress"),
])
async def test_bad_input_or_driver_misuse_is_not_mistaken_for_a_lost_database(
    error: BaseException,
) -> None:
    with pytest.raises(type(error)):
        async with storage_errors("testing"):
            raise error


async def test_a_bad_query_is_not_mistaken_for_a_lost_database() -> None:
    with pytest.raises(asyncpg.UndefinedTableError):
        async with storage_errors("testing"):
            raise asyncpg.UndefinedTableError("no such table")


async def test_readiness_answers_true_on_a_live_pool_and_false_on_a_closed_one(
    database_url: str,
) -> None:
    pool = await asyncpg.create_pool(database_url, min_size=1, max_size=1)
    assert await database_ready(pool, timeout_s=2.0)
    await pool.close()
    assert not await database_ready(pool, timeout_s=2.0)


# What asyncpg raises on the next query when the server died while it read an error (a
# killed postmaster): its protocol state is stale, the connection itself is closed.
STALE_PROTOCOL = "cannot switch to state 15; another operation (2) is in progress"


async def until_dropped(connection: asyncpg.Connection) -> None:
    """Wait for the client to see the server close the connection (or the pool drop it)."""
    for _ in range(200):
        try:
            if connection.is_closed():
                return
        except asyncpg.InterfaceError:  # released by the pool once it saw the close
            return
        await asyncio.sleep(0.05)
    pytest.fail("the terminated connection never closed")


async def test_a_driver_error_on_a_connection_the_server_dropped_is_storage_unavailable(
    database_url: str,
) -> None:
    pool = await asyncpg.create_pool(database_url, min_size=1, max_size=1)
    try:
        with pytest.raises(StorageUnavailable, match="ConnectionResetError"):
            async with connection_from(pool) as connection:
                pid = await connection.fetchval("SELECT pg_backend_pid()")
                other = await asyncpg.connect(database_url)
                await other.execute("SELECT pg_terminate_backend($1)", pid)
                await other.close()
                await until_dropped(connection)
                raise asyncpg.InternalClientError(STALE_PROTOCOL)
        with pytest.raises(asyncpg.InternalClientError):  # on a live connection: a real bug
            async with connection_from(pool) as connection:
                assert await connection.fetchval("SELECT 1") == 1
                raise asyncpg.InternalClientError(STALE_PROTOCOL)
    finally:
        await pool.close()
