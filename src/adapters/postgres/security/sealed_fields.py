"""PostgresSealedFieldsAdapter: version-1 ciphertexts scanned and rewritten, column by column."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import asyncpg

from memlane.adapters.postgres.pool import connection_from
from memlane.domain.model import Owner
from memlane.domain.security import SealedField, keyring as kr
from memlane.ports.security import FieldKey, SealedFieldsPort


class _Column(NamedTuple):
    table: str
    column: str


# Audit payloads are not here: the hash chain covers their ciphertext, so they keep their
# version-1 envelopes (opened by the root key) until the erasure that tombstones them.
COLUMNS = {
    kr.MEMORY_CONTENT: _Column("memories", "content"),
    kr.MEMORY_SUMMARY: _Column("memories", "summary"),
    kr.FACT_SUBJECT: _Column("facts", "subject"),
    kr.FACT_OBJECT: _Column("facts", "object"),
    kr.ENTITY_LABEL: _Column("memory_entities", "label"),
}
# A version-1 envelope starts with byte 1 (substring: get_byte fails on an empty value).
_IS_V1 = "substring({column} FROM 1 FOR 1) = '\\x01'::bytea"
_LEGACY = f"""
SELECT tenant, user_id, id, {{column}} AS sealed FROM {{table}}
WHERE {_IS_V1} {{after}}
ORDER BY tenant, user_id, id
LIMIT $1
"""
_COUNT = f"SELECT count(*) FROM {{table}} WHERE {_IS_V1}"
_AFTER = "AND (tenant, user_id, id) > ($2, $3, $4::uuid)"
_REPLACE = """
UPDATE {table} AS t SET {column} = u.sealed
FROM unnest($1::text[], $2::text[], $3::uuid[], $4::bytea[], $5::bytea[])
    AS u(tenant, user_id, id, sealed, was)
WHERE t.tenant = u.tenant AND t.user_id = u.user_id AND t.id = u.id AND t.{column} = u.was
"""


class PostgresSealedFieldsAdapter(SealedFieldsPort):
    """Keyset scans in primary-key order; set-based compare-and-set updates."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(COLUMNS)

    async def legacy(self, column: str, after: FieldKey | None, limit: int) -> list[SealedField]:
        spec = COLUMNS[column]
        query = _LEGACY.format(table=spec.table, column=spec.column,
                               after="" if after is None else _AFTER)
        params: tuple[object, ...] = () if after is None else (
            after[0].tenant, after[0].user_id, after[1]
        )
        async with connection_from(self._pool, "scanning sealed fields") as conn:
            records = await conn.fetch(query, limit, *params)
        return [
            SealedField(column, Owner(r["tenant"], r["user_id"]), r["id"], bytes(r["sealed"]))
            for r in records
        ]

    async def replace(self, fields: Sequence[SealedField], was: Sequence[bytes]) -> int:
        if not fields:
            return 0
        spec = COLUMNS[fields[0].column]
        params = (
            [f.owner.tenant for f in fields], [f.owner.user_id for f in fields],
            [f.row_id for f in fields], [f.sealed for f in fields], list(was),
        )
        async with connection_from(self._pool, "re-sealing fields") as conn:
            status = await conn.execute(
                _REPLACE.format(table=spec.table, column=spec.column), *params
            )
        return int(status.rsplit(" ", 1)[1])

    async def count_legacy(self, column: str) -> int:
        spec = COLUMNS[column]
        async with connection_from(self._pool, "counting sealed fields") as conn:
            return int(await conn.fetchval(_COUNT.format(table=spec.table, column=spec.column)))
