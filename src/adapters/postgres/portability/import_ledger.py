"""PostgresImportLedgerAdapter: ImportLedgerPort on `import_ledger`, a statement per call."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

import asyncpg

from memlane.adapters.postgres.errors import storage_errors
from memlane.adapters.postgres.leader import release_advisory_lock
from memlane.adapters.postgres.pool import connection_from
from memlane.domain.model import Owner
from memlane.ports.portability import ImportLedgerPort

# The owner's import lock: a key space apart from the write lock (memlane_owner_hash).
TRY_LOCK = (
    "SELECT pg_try_advisory_lock("
    "hashtextextended('memlane-import' || chr(31) || $1 || chr(31) || $2, 0))"
)
UNLOCK = (
    "SELECT pg_advisory_unlock("
    "hashtextextended('memlane-import' || chr(31) || $1 || chr(31) || $2, 0))"
)
SELECT_KNOWN = """
SELECT message_key FROM import_ledger
WHERE tenant = $1 AND user_id = $2 AND message_key = ANY($3::text[])
"""
INSERT_KEYS = """
INSERT INTO import_ledger (tenant, user_id, message_key)
SELECT $1, $2, k FROM unnest($3::text[]) AS k
ON CONFLICT DO NOTHING
"""


class PostgresImportLedgerAdapter(ImportLedgerPort):
    """Keys of one owner at a time; the lock is session-level on a connection held for the
    block, so a crashed import releases it with its connection."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    @asynccontextmanager
    async def hold(self, owner: Owner) -> AsyncIterator[bool]:
        async with storage_errors("taking the import lock"):
            conn = await self._pool.acquire()
        held = False
        try:
            async with storage_errors("taking the import lock"):
                held = bool(await conn.fetchval(TRY_LOCK, owner.tenant, owner.user_id))
            yield held
        finally:
            if held:
                await release_advisory_lock(conn, UNLOCK, owner.tenant, owner.user_id)
            await self._pool.release(conn)

    async def known(self, owner: Owner, keys: Sequence[str]) -> set[str]:
        if not keys:
            return set()
        async with connection_from(self._pool) as connection:
            rows = await connection.fetch(SELECT_KNOWN, owner.tenant, owner.user_id, list(keys))
        return {row["message_key"] for row in rows}

    async def record(self, owner: Owner, keys: Sequence[str]) -> None:
        if not keys:
            return
        async with connection_from(self._pool) as connection:
            await connection.execute(INSERT_KEYS, owner.tenant, owner.user_id, list(keys))
