"""PostgresSupersessionAdapter: SupersessionPort on the marker columns of `memory_heat` (0180)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from uuid import UUID

import asyncpg

from memlane.adapters.postgres.pool import connection_from
from memlane.domain.memories import Corrected, Replacement, newest_per_old
from memlane.domain.model import MemoryType, Owner
from memlane.ports.memories import SupersessionPort

# The replacing memories are current: each was just said (one a restatement merged into).
MAKE_CURRENT = """
UPDATE memory_heat AS h SET superseded_by = NULL, valid_until = NULL
WHERE h.tenant = $1 AND h.user_id = $2 AND h.id = ANY($3::uuid[]) AND h.valid_until IS NOT NULL
RETURNING h.id
"""

# $3-$5 one array per column, one row per older memory (newest_per_old); a marker that would
# not change is not written (nor reported: the same replacement judged twice is one event).
SUPERSEDE = """
UPDATE memory_heat AS h
SET superseded_by = coalesce(r.new, h.superseded_by),
    valid_until = coalesce(h.valid_until, r.at)
FROM unnest($3::uuid[], $4::uuid[], $5::timestamptz[]) AS r(old, new, at)
WHERE h.tenant = $1 AND h.user_id = $2 AND h.id = r.old
  AND (h.valid_until IS NULL
       OR h.superseded_by IS DISTINCT FROM coalesce(r.new, h.superseded_by))
RETURNING h.id
"""

# Both rows: the type is copied into the heat row for decay and cleanup (migration 0001).
RETYPE = """
WITH input AS (
    SELECT * FROM unnest($3::uuid[], $4::float8[], $5::integer[], $6::timestamptz[],
                         $7::float8[]) AS i(id, base_importance, access_count, accessed_at,
                                            importance)
), wide AS (
    UPDATE memories AS m SET memory_type = $8
    FROM input AS i
    WHERE m.tenant = $1 AND m.user_id = $2 AND m.id = i.id AND m.memory_type <> $8
)
UPDATE memory_heat AS h
SET memory_type = $8, base_importance = i.base_importance, access_count = i.access_count,
    accessed_at = i.accessed_at, importance = i.importance
FROM input AS i
WHERE h.tenant = $1 AND h.user_id = $2 AND h.id = i.id
"""

# What a current memory among $3 replaced, and those of $4 no memory replaced.
REVIVE = """
UPDATE memory_heat AS h SET superseded_by = NULL, valid_until = NULL
WHERE h.tenant = $1 AND h.user_id = $2 AND h.valid_until IS NOT NULL
  AND (
      (h.superseded_by = ANY($3::uuid[]) AND EXISTS (
          SELECT 1 FROM memory_heat AS r
          WHERE r.tenant = $1 AND r.user_id = $2 AND r.id = h.superseded_by
            AND r.valid_until IS NULL))
      OR (h.superseded_by IS NULL AND h.id = ANY($4::uuid[])))
RETURNING h.id
"""

# Along each chain while the next memory is stored; the last stored one is the head.
HEADS = """
WITH RECURSIVE chain AS (
    SELECT h.id AS start, h.superseded_by AS at, 1 AS depth
    FROM memory_heat AS h
    WHERE h.tenant = $1 AND h.user_id = $2 AND h.id = ANY($3::uuid[])
      AND h.superseded_by IS NOT NULL
    UNION ALL
    SELECT c.start, n.superseded_by, c.depth + 1
    FROM chain AS c
    JOIN memory_heat AS n ON n.tenant = $1 AND n.user_id = $2 AND n.id = c.at
    WHERE n.superseded_by IS NOT NULL AND c.depth < 100
      AND EXISTS (SELECT 1 FROM memory_heat AS x
                  WHERE x.tenant = $1 AND x.user_id = $2 AND x.id = n.superseded_by)
)
SELECT DISTINCT ON (start) start, at FROM chain ORDER BY start, depth DESC
"""


class PostgresSupersessionAdapter(SupersessionPort):
    """Joins the owner's transaction when one is open (connection_from)."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def supersede(
        self, owner: Owner, replacements: Sequence[Replacement], *, said: bool = True
    ) -> tuple[list[UUID], list[UUID]]:
        rows = newest_per_old(replacements)
        if not rows:
            return [], []
        newer = list({r.new for r in rows if r.new is not None}) if said else []
        async with connection_from(self._pool) as connection, connection.transaction():
            current = await connection.fetch(MAKE_CURRENT, owner.tenant, owner.user_id, newer)
            marked = await connection.fetch(
                SUPERSEDE, owner.tenant, owner.user_id, [r.old for r in rows],
                [r.new for r in rows], [r.at for r in rows],
            )
        return sorted(r["id"] for r in marked), sorted(r["id"] for r in current)

    async def retype(self, owner: Owner, corrections: Sequence[Corrected]) -> int:
        if not corrections:
            return 0
        async with connection_from(self._pool) as connection:
            status = await connection.execute(
                RETYPE, owner.tenant, owner.user_id, [c.memory_id for c in corrections],
                [c.heat.base_importance for c in corrections],
                [c.heat.access_count for c in corrections],
                [c.heat.accessed_at for c in corrections],
                [c.importance for c in corrections], MemoryType.CORRECTION.value,
            )
        return int(status.rsplit(" ", 1)[-1])

    async def revive(
        self, owner: Owner, *, replaced_by: Collection[UUID] = (), ended: Collection[UUID] = ()
    ) -> list[UUID]:
        if not replaced_by and not ended:
            return []
        async with connection_from(self._pool) as connection:
            records = await connection.fetch(
                REVIVE, owner.tenant, owner.user_id, list(replaced_by), list(ended)
            )
        return sorted(r["id"] for r in records)

    async def heads(self, owner: Owner, memory_ids: Collection[UUID]) -> dict[UUID, UUID]:
        if not memory_ids:
            return {}
        async with connection_from(self._pool) as connection:
            records = await connection.fetch(HEADS, owner.tenant, owner.user_id, list(memory_ids))
        return {r["start"]: r["at"] for r in records}
