"""PostgresTierFillAdapter: memories without tiers (stored before migration 0200), filled a
batch per statement."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

import asyncpg

from memlane.adapters.postgres.errors import storage_errors
from memlane.adapters.postgres.memories import sql
from memlane.adapters.postgres.memories.rows import key_arrays, to_stored_many
from memlane.adapters.postgres.pool import connection_from
from memlane.domain.model import StoredMemory
from memlane.domain.security import RowKey
from memlane.ports.memories import FilledTiers, TierFillPort

# The scan walks memories_untiered_idx: each batch is one index range scan, and a filled
# table costs nothing.
BATCH = f"""
SELECT {sql.UNINDEXED_COLUMNS} {sql.FROM_JOINED}
WHERE m.abstract IS NULL AND (m.tenant, m.user_id, m.id) > ($2, $3, $4::uuid)
ORDER BY m.tenant, m.user_id, m.id
LIMIT $1
"""
_INPUT = """
unnest($1::text[], $2::text[], $3::uuid[], $4::bytea[], $5::bytea[], $6::text[],
       $7::float8[], $8::float4[], $9::float4[], $10::text[])
    AS u(tenant, user_id, id, abstract, overview, provenance, confidence, valence, arousal,
         domain)"""
# Only rows still without tiers are written: a live write or edit since the read has set
# them itself (and its traits with them). The traits go where none are stored yet.
STORE = f"""
WITH filled AS (
    UPDATE memories AS m SET abstract = u.abstract, overview = u.overview
    FROM {_INPUT}
    WHERE m.tenant = u.tenant AND m.user_id = u.user_id AND m.id = u.id AND m.abstract IS NULL
    RETURNING m.tenant, m.user_id, m.id
), traits AS (
    UPDATE memory_heat AS h
    SET provenance = u.provenance, confidence = u.confidence, valence = u.valence,
        arousal = u.arousal, domain = u.domain
    FROM {_INPUT}
    WHERE h.tenant = u.tenant AND h.user_id = u.user_id AND h.id = u.id
      AND h.provenance IS NULL
)
SELECT count(*) FROM filled
"""
COUNT = "SELECT count(*) FROM memories WHERE abstract IS NULL"
# Before every (tenant, user_id, id): tenants and users are never empty.
_START: RowKey = ("", "", UUID(int=0))


class PostgresTierFillAdapter(TierFillPort):
    """Reads and fills memories without tiers on the pool (each batch commits)."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def untiered_batch(self, after: RowKey | None, limit: int) -> list[StoredMemory]:
        async with storage_errors("scanning memories without tiers"), connection_from(
            self._pool
        ) as conn:
            return to_stored_many(await conn.fetch(BATCH, limit, *(after or _START)))

    async def store_tiers(self, rows: Sequence[FilledTiers]) -> int:
        if not rows:
            return 0
        traits = [r.traits for r in rows]
        params = (
            *key_arrays([(r.owner, r.memory_id) for r in rows]),
            [r.abstract for r in rows],
            [r.overview for r in rows],
            [t.provenance.value for t in traits],
            [t.confidence for t in traits],
            [None if t.affect is None else t.affect.valence for t in traits],
            [None if t.affect is None else t.affect.arousal for t in traits],
            [t.domain.value for t in traits],
        )
        async with storage_errors("storing tiers"), connection_from(self._pool) as conn:
            return int(await conn.fetchval(STORE, *params))

    async def count_untiered(self) -> int:
        async with storage_errors("counting memories without tiers"), connection_from(
            self._pool
        ) as conn:
            return int(await conn.fetchval(COUNT))
