"""PostgresTopicIndexAdapter: memories without topic tokens, filled a batch per statement."""

from __future__ import annotations

import json
from collections.abc import Sequence
from uuid import UUID

import asyncpg

from memlane.adapters.postgres.errors import storage_errors
from memlane.adapters.postgres.memories import affected_rows, key_arrays, sql, to_stored_many
from memlane.adapters.postgres.pool import connection_from
from memlane.domain.facts import MemoryTopicTokens
from memlane.domain.model import StoredMemory
from memlane.domain.security import RowKey
from memlane.ports.facts import TopicIndexPort

# The scan walks memories_untokened_idx, so each batch is one index range scan and a filled
# table costs nothing. The columns are the topic reads' (no terms, no vector).
BATCH = f"""
SELECT {sql.UNINDEXED_COLUMNS} {sql.FROM_JOINED}
WHERE m.topic_tokens IS NULL AND (m.tenant, m.user_id, m.id) > ($2, $3, $4::uuid)
ORDER BY m.tenant, m.user_id, m.id
LIMIT $1
"""
# Tokens arrive as JSON text per row (arrays of different lengths cannot be unnested). Only
# rows still without tokens are written: a live write since the read has set them itself.
STORE = """
UPDATE memories AS m
SET topic_tokens = ARRAY(SELECT jsonb_array_elements_text(u.tokens::jsonb))
FROM unnest($1::text[], $2::text[], $3::uuid[], $4::text[]) AS u(tenant, user_id, id, tokens)
WHERE m.tenant = u.tenant AND m.user_id = u.user_id AND m.id = u.id AND m.topic_tokens IS NULL
"""
COUNT = "SELECT count(*) FROM memories WHERE topic_tokens IS NULL"
# Before every (tenant, user_id, id): tenants and users are never empty.
_START: RowKey = ("", "", UUID(int=0))


class PostgresTopicIndexAdapter(TopicIndexPort):
    """Reads and fills memories without topic tokens on the pool (each batch commits)."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def untokened_batch(self, after: RowKey | None, limit: int) -> list[StoredMemory]:
        async with storage_errors("scanning memories without topic tokens"), connection_from(
            self._pool
        ) as conn:
            return to_stored_many(await conn.fetch(BATCH, limit, *(after or _START)))

    async def store_tokens(self, rows: Sequence[MemoryTopicTokens]) -> int:
        if not rows:
            return 0
        params = (
            *key_arrays([(r.owner, r.memory_id) for r in rows]),
            [json.dumps(list(r.tokens)) for r in rows],
        )
        async with storage_errors("storing topic tokens"), connection_from(self._pool) as conn:
            return affected_rows(await conn.execute(STORE, *params))

    async def count_untokened(self) -> int:
        async with storage_errors("counting memories without topic tokens"), connection_from(
            self._pool
        ) as conn:
            return int(await conn.fetchval(COUNT))
