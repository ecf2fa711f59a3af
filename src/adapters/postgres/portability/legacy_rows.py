"""PostgresLegacyRowsAdapter: rows from before migration 0110, sealed a batch per statement."""

from __future__ import annotations

import json
from collections.abc import Sequence
from uuid import UUID

import asyncpg

from memlane.adapters.postgres.errors import storage_errors
from memlane.adapters.postgres.memories import affected_rows, key_arrays
from memlane.adapters.postgres.pool import connection_from
from memlane.domain.facts import RELATION_TYPES
from memlane.domain.model import Owner
from memlane.domain.portability import (
    LegacyRelation,
    LegacyRow,
    SealedRelation,
    SealedRow,
)
from memlane.domain.security import RowKey
from memlane.ports.portability import LegacyRowsPort

# The scan walks the partial index of unsealed rows (memories_unsealed_idx and the
# quarantine's), so each batch is one index range scan and a finished table costs nothing.
_BATCH = """
SELECT m.tenant, m.user_id, m.id, m.tags, m.metadata, m.conversation_id
FROM {table} AS m
WHERE m.attributes IS NULL AND (m.tenant, m.user_id, m.id) > ($2, $3, $4::uuid)
ORDER BY m.tenant, m.user_id, m.id
LIMIT $1
"""
# Tags arrive as JSON text per row (arrays of different lengths cannot be unnested). Only
# rows still unsealed are written: a live write since the read has sealed the row itself.
_STORE = """
UPDATE {table} AS m
SET attributes = u.attributes,
    tags = ARRAY(SELECT jsonb_array_elements_text(u.tags::jsonb)),
    conversation_id = u.conversation_id,
    metadata = '{{}}'::jsonb
FROM unnest($1::text[], $2::text[], $3::uuid[], $4::bytea[], $5::text[], $6::text[])
    AS u(tenant, user_id, id, attributes, tags, conversation_id)
WHERE m.tenant = u.tenant AND m.user_id = u.user_id AND m.id = u.id AND m.attributes IS NULL
"""
# Facts whose relation is a caller's own word, stored before migration 0111 ($1: memlane's
# own relation names).
_OWN_WORDS = """
FROM facts AS f
WHERE f.relation_sealed IS NULL AND f.relation <> ALL($1::text[])
  AND f.relation NOT LIKE 'custom\\_%'
"""
_RELATIONS = f"""
SELECT f.tenant, f.user_id, f.id, f.relation {_OWN_WORDS}
  AND (f.tenant, f.user_id, f.id) > ($3, $4, $5::uuid)
ORDER BY f.tenant, f.user_id, f.id
LIMIT $2
"""
_COUNT_RELATIONS = f"SELECT count(*) {_OWN_WORDS}"
_STORE_RELATIONS = """
UPDATE facts AS f SET relation = u.token, relation_sealed = u.sealed
FROM unnest($1::text[], $2::text[], $3::uuid[], $4::text[], $5::text[], $6::bytea[])
    AS u(tenant, user_id, id, relation, token, sealed)
WHERE f.tenant = u.tenant AND f.user_id = u.user_id AND f.id = u.id
  AND f.relation = u.relation AND f.relation_sealed IS NULL
"""
_COUNT = """
SELECT (SELECT count(*) FROM memories WHERE attributes IS NULL)
     + (SELECT count(*) FROM memory_quarantine WHERE attributes IS NULL)
"""
# Before every (tenant, user_id, id): tenants and users are never empty.
_START: RowKey = ("", "", UUID(int=0))


def _table(quarantined: bool) -> str:
    return "memory_quarantine" if quarantined else "memories"


class PostgresLegacyRowsAdapter(LegacyRowsPort):
    """Reads and seals legacy rows on the pool, one statement per batch (each commits)."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def legacy_batch(
        self, after: RowKey | None, limit: int, *, quarantined: bool = False
    ) -> list[LegacyRow]:
        statement = _BATCH.format(table=_table(quarantined))
        async with storage_errors("scanning unsealed memories"), connection_from(
            self._pool
        ) as conn:
            records = await conn.fetch(statement, limit, *(after or _START))
        return [
            LegacyRow(
                Owner(r["tenant"], r["user_id"]), r["id"], tuple(r["tags"]),
                r["metadata"], r["conversation_id"],
            )
            for r in records
        ]

    async def store_sealed(self, rows: Sequence[SealedRow], *, quarantined: bool = False) -> int:
        if not rows:
            return 0
        params = (
            *key_arrays([(r.owner, r.memory_id) for r in rows]),
            [r.attributes for r in rows],
            [json.dumps(list(r.tag_tokens)) for r in rows],
            [r.conversation_token for r in rows],
        )
        async with storage_errors("sealing memories"), connection_from(self._pool) as conn:
            status = await conn.execute(_STORE.format(table=_table(quarantined)), *params)
        return affected_rows(status)

    async def legacy_relations(self, after: RowKey | None, limit: int) -> list[LegacyRelation]:
        async with storage_errors("scanning fact relations"), connection_from(
            self._pool
        ) as conn:
            records = await conn.fetch(
                _RELATIONS, sorted(RELATION_TYPES), limit, *(after or _START)
            )
        return [
            LegacyRelation(Owner(r["tenant"], r["user_id"]), r["id"], r["relation"])
            for r in records
        ]

    async def store_relations(self, rows: Sequence[SealedRelation]) -> int:
        if not rows:
            return 0
        params = (
            *key_arrays([(r.owner, r.fact_id) for r in rows]),
            [r.relation for r in rows], [r.token for r in rows], [r.sealed for r in rows],
        )
        async with storage_errors("sealing fact relations"), connection_from(
            self._pool
        ) as conn:
            return affected_rows(await conn.execute(_STORE_RELATIONS, *params))

    async def count_legacy(self) -> int:
        async with storage_errors("counting unsealed memories"), connection_from(
            self._pool
        ) as conn:
            return int(await conn.fetchval(_COUNT))

    async def count_legacy_relations(self) -> int:
        async with storage_errors("counting fact relations"), connection_from(
            self._pool
        ) as conn:
            return int(await conn.fetchval(_COUNT_RELATIONS, sorted(RELATION_TYPES)))
