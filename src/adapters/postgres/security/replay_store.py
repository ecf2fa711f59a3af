"""PostgresReplayStoreAdapter: every owner's data key id in owner order; the journal key's id."""

from __future__ import annotations

import asyncpg

from memlane.adapters.postgres.memories import sql
from memlane.adapters.postgres.pool import connection_from
from memlane.domain.model import Owner
from memlane.domain.security import KeyRef
from memlane.ports.security import ReplayStorePort

# The root key (the empty owner) sorts first and is never a user's: `> ('', '')` skips it.
KEYS_AFTER = """
SELECT tenant, user_id, id FROM data_keys
WHERE (tenant, user_id) > ($1, $2)
ORDER BY tenant, user_id
LIMIT $3
"""
JOURNAL_KEY_META = "erasure_journal_key_id"


class PostgresReplayStoreAdapter(ReplayStorePort):
    """A keyset scan of `data_keys` along its primary key (no wrapped key leaves the
    database), and a row of `memlane_meta`."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def keys_after(self, after: Owner | None, limit: int) -> list[KeyRef]:
        start = after or Owner("", "")
        async with connection_from(self._pool, "listing data keys") as connection:
            records = await connection.fetch(KEYS_AFTER, start.tenant, start.user_id, limit)
        return [KeyRef(Owner(r["tenant"], r["user_id"]), r["id"]) for r in records]

    async def journal_key(self, offered: str | None) -> str | None:
        async with connection_from(self._pool, "reading the journal key id") as connection:
            if offered is not None:
                await connection.execute(sql.INSERT_META_IF_ABSENT, JOURNAL_KEY_META, offered)
            recorded: str | None = await connection.fetchval(sql.GET_META, JOURNAL_KEY_META)
        return recorded
