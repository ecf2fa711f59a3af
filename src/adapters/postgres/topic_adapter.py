"""PostgresTopicAdapter: TopicPort as one owner-scoped statement without terms or vectors."""

from __future__ import annotations

import asyncpg

from memlane.adapters.postgres import sql
from memlane.adapters.postgres.pool import connection_from
from memlane.adapters.postgres.rows import to_stored_many
from memlane.domain.model import Owner, StoredMemory
from memlane.ports.topics import TopicPort

# get_many's columns without index terms or vector, for every memory of the owner: tags and
# titles are sealed, so which memories carry a topic is known only once their attributes open.
OWNER_MEMORIES = (
    sql.GET_MANY_UNINDEXED.replace(" AND m.id = ANY($3::uuid[])", "")
    + "ORDER BY m.created_at DESC, m.id DESC\n"
)
assert "$3" not in OWNER_MEMORIES


class PostgresTopicAdapter(TopicPort):
    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def memories(self, owner: Owner) -> list[StoredMemory]:
        async with connection_from(self._pool) as connection:
            records = await connection.fetch(OWNER_MEMORIES, owner.tenant, owner.user_id)
        return to_stored_many(records)
