"""Whether the database answers now: the readiness probe behind /readyz."""

from __future__ import annotations

import asyncio

import asyncpg

from memlane.adapters.postgres.errors import CONNECTION_ERRORS

_NOT_READY: tuple[type[BaseException], ...] = (
    *CONNECTION_ERRORS, asyncpg.PostgresError, asyncpg.InterfaceError,
)


async def database_ready(pool: asyncpg.Pool, timeout_s: float) -> bool:
    """True when `SELECT 1` answers within `timeout_s`; False (never raises) otherwise."""
    try:
        async with asyncio.timeout(timeout_s):
            await pool.fetchval("SELECT 1")
    except _NOT_READY:
        return False
    return True
