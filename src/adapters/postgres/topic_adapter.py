"""PostgresTopicAdapter: TopicPort through the owner-scoped topic index (migration 0120)."""

from __future__ import annotations

import asyncpg

from memlane.adapters.postgres import sql
from memlane.adapters.postgres.pool import connection_from
from memlane.adapters.postgres.rows import to_stored_many
from memlane.domain.model import Owner, StoredMemory
from memlane.domain.topics import TopicSummary
from memlane.ports.topics import TopicPort

# The columns of get_many without index terms or vector (a topic view opens content only).
MEMORIES_WITH = sql.GET_MANY_UNINDEXED.replace(
    "m.id = ANY($3::uuid[])",
    "memlane_owner_topics(m.tenant, m.user_id, m.tags, m.metadata)"
    " @> ARRAY[memlane_owner_key($1, $2) || memlane_topic_key($3)]",
)
assert MEMORIES_WITH.count("memlane_owner_topics") == 1

# Each memory's topics once by key (its first spelling), then one row per key: how many,
# the newest time, and the newest memory's spelling.
SUMMARIES = """
SELECT (array_agg(t.label ORDER BY m.created_at DESC, m.id DESC))[1] AS topic,
       count(*) AS count, max(m.created_at) AS last_activity
FROM memories AS m
CROSS JOIN LATERAL (
    SELECT DISTINCT ON (memlane_topic_key(x.raw)) memlane_topic_key(x.raw) AS key,
           memlane_topic_label(x.raw) AS label
    FROM unnest(memlane_topics(m.tags, m.metadata)) WITH ORDINALITY AS x(raw, n)
    WHERE memlane_topic_key(x.raw) <> ''
    ORDER BY memlane_topic_key(x.raw), x.n
) AS t
WHERE m.tenant = $1 AND m.user_id = $2
GROUP BY t.key
ORDER BY max(m.created_at) DESC, t.key
LIMIT $3
"""


class PostgresTopicAdapter(TopicPort):
    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def memories_with(self, owner: Owner, topic: str) -> list[StoredMemory]:
        async with connection_from(self._pool) as connection:
            records = await connection.fetch(MEMORIES_WITH, owner.tenant, owner.user_id, topic)
        return to_stored_many(records)

    async def summaries(self, owner: Owner, limit: int) -> list[TopicSummary]:
        async with connection_from(self._pool) as connection:
            records = await connection.fetch(SUMMARIES, owner.tenant, owner.user_id, limit)
        return [TopicSummary(r["topic"], r["count"], r["last_activity"]) for r in records]
