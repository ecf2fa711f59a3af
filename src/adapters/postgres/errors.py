"""The one classification of driver failures: which mean "the database is unreachable now"."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg

from memlane.domain.errors import StorageUnavailable

# Errors that mean "the database cannot be reached right now", as opposed to a bad query.
CONNECTION_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.TooManyConnectionsError,
)
# asyncpg.InterfaceError is mostly misuse of the driver, and its subclass DataError is bad
# input: neither is an outage. A plain InterfaceError is one when the connection or the pool
# is already closed, which asyncpg says in these words.
_CLOSED = ("connection is closed", "pool is closed", "pool is closing")


_CAUGHT: tuple[type[BaseException], ...] = (*CONNECTION_ERRORS, asyncpg.InterfaceError)


def is_connection_error(exc: BaseException) -> bool:
    """True when `exc` means the database cannot be reached right now."""
    if isinstance(exc, CONNECTION_ERRORS):
        return True
    return type(exc) is asyncpg.InterfaceError and any(m in str(exc) for m in _CLOSED)


@asynccontextmanager
async def storage_errors(doing: str) -> AsyncIterator[None]:
    """Turn a lost database inside the block into StorageUnavailable("... while `doing`");
    the driver's class name is kept, never its message (it may quote parameters)."""
    try:
        yield
    except _CAUGHT as exc:
        if not is_connection_error(exc):
            raise
        raise StorageUnavailable(
            f"PostgreSQL unavailable while {doing}: {type(exc).__name__}"
        ) from exc


@asynccontextmanager
async def lost_mid_query(connection: asyncpg.Connection) -> AsyncIterator[None]:
    """A connection the server vanished under raises ConnectionResetError (an outage)."""
    try:
        yield
    except asyncpg.InternalClientError as exc:
        # The server vanished mid-message (a killed postmaster): the driver's protocol
        # state is stale ("another operation is in progress") on a connection that is
        # closed. That is a lost database, not a driver bug.
        if _lost(connection):
            raise ConnectionResetError("the connection was lost mid-query") from exc
        raise


def _lost(connection: asyncpg.Connection) -> bool:
    try:
        return connection.is_closed()
    except asyncpg.InterfaceError:  # the pool already detached it: its connection died
        return True
