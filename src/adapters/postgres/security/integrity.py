"""PostgresIntegrityAdapter: a keyset scan of every sealed memory, and the quarantine table."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import asyncpg

from memlane.adapters.postgres.errors import storage_errors
from memlane.adapters.postgres.memories import key_arrays, keyset_fetch, sql, to_stored_many
from memlane.adapters.postgres.pool import connection_from
from memlane.domain.model import StoredMemory
from memlane.domain.security import RowKey, UnreadableRow
from memlane.ports.security import IntegrityPort

# What verify needs of a row: no vector, no index terms (rebuilding them costs ~0.1 ms a row).
_SCAN_COLUMNS = sql.UNINDEXED_COLUMNS
# Primary-key order, so each batch is one index range scan from where the last one ended.
SCAN_FIRST = f"""
SELECT {_SCAN_COLUMNS} {sql.FROM_JOINED}
ORDER BY m.tenant, m.user_id, m.id
LIMIT $1
"""
SCAN_AFTER = f"""
SELECT {_SCAN_COLUMNS} {sql.FROM_JOINED}
WHERE (m.tenant, m.user_id, m.id) > ($2, $3, $4::uuid)
ORDER BY m.tenant, m.user_id, m.id
LIMIT $1
"""
# Both halves of each row leave the live tables and land in the quarantine in one statement;
# the delete triggers drop its postings, term statistics and edges as for any delete.
QUARANTINE = """
WITH bad AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::uuid[], $4::text[])
        AS b(tenant, user_id, id, fields)
), heat AS (
    DELETE FROM memory_heat AS h USING bad
    WHERE h.tenant = bad.tenant AND h.user_id = bad.user_id AND h.id = bad.id
    RETURNING h.tenant, h.user_id, h.id, h.importance, h.base_importance, h.access_count,
              h.accessed_at
), wide AS (
    DELETE FROM memories AS m USING bad
    WHERE m.tenant = bad.tenant AND m.user_id = bad.user_id AND m.id = bad.id
    RETURNING m.tenant, m.user_id, m.id, bad.fields, m.memory_type, m.content, m.summary,
              m.conversation_id, m.tags, m.metadata, m.attributes, m.pinned,
              m.embedding::real[] AS embedding,
              m.embedding_model, m.created_at, m.updated_at
), moved AS (
    INSERT INTO memory_quarantine (
        tenant, user_id, id, unreadable, quarantined_at, memory_type, content, summary,
        conversation_id, tags, metadata, attributes, pinned, embedding, embedding_model,
        created_at, updated_at, importance, base_importance, access_count, accessed_at
    )
    SELECT w.tenant, w.user_id, w.id, string_to_array(w.fields, ','), $5, w.memory_type,
           w.content, w.summary, w.conversation_id, w.tags, w.metadata, w.attributes, w.pinned,
           w.embedding,
           w.embedding_model, w.created_at, w.updated_at, h.importance, h.base_importance,
           h.access_count, h.accessed_at
    FROM wide AS w
    LEFT JOIN heat AS h ON h.tenant = w.tenant AND h.user_id = w.user_id AND h.id = w.id
    ON CONFLICT (tenant, user_id, id, owner_key) DO NOTHING
    RETURNING 1
)
SELECT count(*) FROM moved
"""


class PostgresIntegrityAdapter(IntegrityPort):
    """Reads for verify and the move into memory_quarantine, on the pool."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def sealed_batch(self, after: RowKey | None, limit: int) -> list[StoredMemory]:
        async with storage_errors("scanning memories"), connection_from(self._pool) as conn:
            records = await keyset_fetch(conn, SCAN_FIRST, SCAN_AFTER, limit, after)
        return to_stored_many(records)

    async def quarantine(self, rows: Sequence[UnreadableRow], now: datetime) -> int:
        if not rows:
            return 0
        params = (
            *key_arrays([(r.owner, r.memory_id) for r in rows]),
            [",".join(r.fields) for r in rows],
            now,
        )
        async with storage_errors("quarantining memories"), connection_from(self._pool) as conn:
            moved: int = await conn.fetchval(QUARANTINE, *params)
        return moved
