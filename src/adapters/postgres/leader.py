"""PostgresLeaderLockAdapter: a session-level advisory lock on a dedicated pool connection."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from memlane.adapters.postgres.errors import CONNECTION_ERRORS, storage_errors
from memlane.ports.leader import LeaderLockPort

_UNLOCK_FAILED: tuple[type[BaseException], ...] = (
    *CONNECTION_ERRORS, asyncpg.PostgresError, asyncpg.InterfaceError,
)

# An arbitrary but fixed 64-bit key: "memlane maintenance". Every replica must agree on it.
MAINTENANCE_LOCK_KEY = 0x6D656D6C616E6501

TRY_LOCK = "SELECT pg_try_advisory_lock($1)"
UNLOCK = "SELECT pg_advisory_unlock($1)"


class PostgresLeaderLockAdapter(LeaderLockPort):
    """Holds pg_try_advisory_lock on one connection for the block.

    A session-level lock lives as long as its connection: if the holder crashes, the
    server drops the connection and the lock with it, so leadership cannot get stuck.
    """

    def __init__(self, pool: asyncpg.Pool, lock_key: int = MAINTENANCE_LOCK_KEY) -> None:
        self._pool = pool
        self._lock_key = lock_key

    @asynccontextmanager
    async def hold(self) -> AsyncIterator[bool]:
        async with storage_errors("taking the leader lock"):
            conn = await self._pool.acquire()
        leading = False
        try:
            leading = bool(await conn.fetchval(TRY_LOCK, self._lock_key))
            yield leading
        finally:
            if leading:
                await release_advisory_lock(conn, UNLOCK, self._lock_key)
            await self._pool.release(conn)


async def release_advisory_lock(
    conn: PoolConnectionProxy[asyncpg.Record], unlock_sql: str, *args: object
) -> None:
    """Release a session-level lock before the connection goes back to the pool.

    The pool does not reset its connections' session state (pool.py): a lock that cannot
    be released goes with its connection, which is terminated."""
    if conn.is_closed():
        return  # the server dropped the lock with the connection
    try:
        if await conn.fetchval(unlock_sql, *args):
            return
    except _UNLOCK_FAILED:
        pass
    conn.terminate()
