"""PostgresConsolidationAdapter: ConsolidationPort, the sources deleted in one statement."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

import asyncpg

from memlane.adapters.postgres.pool import connection_from
from memlane.domain.model import Owner
from memlane.ports.memories import ConsolidationPort

# As the store's single delete: the heat row and the wide row; the triggers on memories
# take the edges, postings, term statistics and the facts still read from them with them.
# The facts move to $4 first (a CTE's update is done before the triggers of the statement run,
# at its end, see no fact of the sources left).
DELETE_SOURCES = """
WITH kept AS (
    UPDATE facts SET source_memory_id = $4, updated_at = now()
    WHERE $4::uuid IS NOT NULL AND tenant = $1 AND user_id = $2
      AND source_memory_id = ANY($3::uuid[])
      AND EXISTS (SELECT 1 FROM memories AS m
                  WHERE m.tenant = $1 AND m.user_id = $2 AND m.id = $4)
), heat AS (
    DELETE FROM memory_heat WHERE tenant = $1 AND user_id = $2 AND id = ANY($3::uuid[])
), wide AS (
    DELETE FROM memories WHERE tenant = $1 AND user_id = $2 AND id = ANY($3::uuid[])
    RETURNING id
)
SELECT id FROM wide
"""


class PostgresConsolidationAdapter(ConsolidationPort):
    """Joins the owner's transaction when one is open (connection_from)."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def delete_sources(
        self, owner: Owner, memory_ids: Sequence[UUID], into: UUID | None = None
    ) -> list[UUID]:
        async with connection_from(self._pool) as connection:
            records = await connection.fetch(
                DELETE_SOURCES, owner.tenant, owner.user_id, list(memory_ids), into
            )
        return [r["id"] for r in records]
