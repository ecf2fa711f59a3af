"""PostgresTopicAdapter: TopicPort as owner-scoped statements along the topic token index."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

import asyncpg

from memlane.adapters.postgres.memories import sql, to_stored_many
from memlane.adapters.postgres.pool import connection_from
from memlane.domain.facts import TopicTally
from memlane.domain.model import Owner, StoredMemory
from memlane.ports.facts import TopicPort

# get_many's columns without index terms or vector: what a topic view opens.
_OWNER_ROWS = sql.GET_MANY_UNINDEXED.replace(" AND m.id = ANY($3::uuid[])", "")
_NEWEST_FIRST = "ORDER BY created_at DESC, id DESC\n"
# A topic's memories along memories_topic_tokens_gin_idx, and the rows stored before tokens
# were kept along memories_untokened_idx (empty once `memlane upgrade` has filled them).
CARRYING = (
    f"({_OWNER_ROWS} AND m.topic_tokens @> ARRAY[$3::text])\nUNION ALL\n"
    f"({_OWNER_ROWS} AND m.topic_tokens IS NULL)\n" + _NEWEST_FIRST
)
UNTOKENED = f"{_OWNER_ROWS} AND m.topic_tokens IS NULL\nORDER BY m.created_at DESC, m.id DESC\n"
# Per token: how many memories, the newest (created_at, id) and its time; nothing opened.
TALLIES = """
SELECT t.token, count(*) AS count, max(m.created_at) AS last_activity,
       (array_agg(m.id ORDER BY m.created_at DESC, m.id DESC))[1] AS newest
FROM memories AS m CROSS JOIN LATERAL unnest(m.topic_tokens) AS t(token)
WHERE m.tenant = $1 AND m.user_id = $2
GROUP BY t.token
ORDER BY last_activity DESC, newest DESC
"""
assert "$3" in CARRYING and "$3" not in UNTOKENED


class PostgresTopicAdapter(TopicPort):
    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def _rows(self, statement: str, *params: object) -> list[StoredMemory]:
        async with connection_from(self._pool) as connection:
            return to_stored_many(await connection.fetch(statement, *params))

    async def carrying(self, owner: Owner, token: str) -> list[StoredMemory]:
        return await self._rows(CARRYING, owner.tenant, owner.user_id, token)

    async def untokened(self, owner: Owner) -> list[StoredMemory]:
        return await self._rows(UNTOKENED, owner.tenant, owner.user_id)

    async def tallies(self, owner: Owner) -> list[TopicTally]:
        async with connection_from(self._pool) as connection:
            records = await connection.fetch(TALLIES, owner.tenant, owner.user_id)
        return [
            TopicTally(r["token"], r["count"], r["last_activity"], r["newest"]) for r in records
        ]

    async def memories(self, owner: Owner, ids: Sequence[UUID]) -> list[StoredMemory]:
        if not ids:
            return []
        return await self._rows(sql.GET_MANY_UNINDEXED, owner.tenant, owner.user_id, list(ids))
