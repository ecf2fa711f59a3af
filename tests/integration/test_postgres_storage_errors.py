"""One classification of driver failures: a lost database is StorageUnavailable everywhere."""

from __future__ import annotations

import asyncpg
import pytest

from memlane.adapters.postgres.errors import CONNECTION_ERRORS, storage_errors
from memlane.adapters.postgres.readiness import database_ready
from memlane.domain.errors import StorageUnavailable

pytestmark = pytest.mark.integration


@pytest.mark.parametrize(
    "error",
    [
        ConnectionRefusedError(),
        TimeoutError(),
        asyncpg.InterfaceError("closed"),
        asyncpg.CannotConnectNowError("starting"),
    ],
)
async def test_each_connection_error_becomes_storage_unavailable_naming_the_class(
    error: BaseException,
) -> None:
    assert isinstance(error, CONNECTION_ERRORS)
    with pytest.raises(StorageUnavailable) as raised:
        async with storage_errors("testing"):
            raise error
    assert type(error).__name__ in str(raised.value)
    assert "while testing" in str(raised.value)


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
