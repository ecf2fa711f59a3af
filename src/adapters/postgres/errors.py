"""The one classification of driver failures: which mean "the database is unreachable now"."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg

from memlane.domain.errors import StorageUnavailable

# Errors that mean "the database cannot be reached right now", as opposed to a bad query.
# InterfaceError covers a pool or connection closed under us (and misuse of the driver,
# which tests would catch first); either way the request cannot be served now.
CONNECTION_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.TooManyConnectionsError,
    asyncpg.InterfaceError,
)


@asynccontextmanager
async def storage_errors(doing: str) -> AsyncIterator[None]:
    """Turn a lost database inside the block into StorageUnavailable("... while `doing`");
    the driver's class name is kept, never its message (it may quote parameters)."""
    try:
        yield
    except CONNECTION_ERRORS as exc:
        raise StorageUnavailable(
            f"PostgreSQL unavailable while {doing}: {type(exc).__name__}"
        ) from exc
