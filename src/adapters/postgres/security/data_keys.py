"""PostgresDataKeyAdapter: wrapped data keys in `data_keys`, one row per owner."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import asyncpg

from memlane.adapters.postgres.pool import connection_from
from memlane.domain.model import Owner
from memlane.domain.security import WrappedKey
from memlane.ports.security import DataKeyPort

_COLUMNS = "tenant, user_id, id, master_key_id, wrapped"

LOAD = f"""
SELECT {_COLUMNS} FROM data_keys
WHERE (tenant, user_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))
"""
# The root (the empty owner) only into an empty table: a lost root is never replaced, since a
# new one would silently stop every blind index from matching.
CREATE = f"""
WITH fresh AS (
    INSERT INTO data_keys (tenant, user_id, id, master_key_id, wrapped)
    SELECT k.tenant, k.user_id, k.id, k.master_key_id, k.wrapped
    FROM unnest($1::text[], $2::text[], $3::uuid[], $4::text[], $5::bytea[])
        AS k(tenant, user_id, id, master_key_id, wrapped)
    WHERE k.tenant <> '' OR NOT EXISTS (SELECT 1 FROM data_keys)
    ON CONFLICT DO NOTHING
    RETURNING {_COLUMNS}
)
SELECT {_COLUMNS} FROM fresh
UNION ALL
SELECT {_COLUMNS} FROM data_keys
WHERE (tenant, user_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))
  AND id <> ALL (SELECT id FROM fresh)
"""
DESTROY = "DELETE FROM data_keys WHERE tenant = $1 AND user_id = $2"
_STALE = """
SELECT {columns} FROM data_keys
WHERE master_key_id <> $1 AND (tenant, user_id) {after} ($2, $3)
ORDER BY tenant, user_id
LIMIT $4
"""
# From the start the root (the empty owner, first in order) is included; after a key, not it.
STALE_FIRST = _STALE.format(columns=_COLUMNS, after=">=")
STALE_AFTER = _STALE.format(columns=_COLUMNS, after=">")
REWRAP = """
UPDATE data_keys AS d SET wrapped = k.wrapped, master_key_id = k.master_key_id,
                          rewrapped_at = $5
FROM unnest($1::uuid[], $2::text[], $3::bytea[], $4::text[])
    AS k(id, master_key_id, wrapped, was)
WHERE d.id = k.id AND d.master_key_id = k.was
"""


def _key(record: Any) -> WrappedKey:
    return WrappedKey(
        Owner(record["tenant"], record["user_id"]), record["id"], record["master_key_id"],
        bytes(record["wrapped"]),
    )


class PostgresDataKeyAdapter(DataKeyPort):
    """DataKeyPort on a pool; inside an owner's transaction its calls join it."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def load(self, owners: Sequence[Owner]) -> list[WrappedKey]:
        if not owners:
            return []
        async with connection_from(self._pool, "loading data keys") as conn:
            records = await conn.fetch(
                LOAD, [o.tenant for o in owners], [o.user_id for o in owners]
            )
        return [_key(r) for r in records]

    async def create(self, keys: Sequence[WrappedKey]) -> list[WrappedKey]:
        if not keys:
            return []
        params = (
            [k.owner.tenant for k in keys], [k.owner.user_id for k in keys],
            [k.id for k in keys], [k.master_id for k in keys], [k.envelope for k in keys],
        )
        async with connection_from(self._pool, "creating data keys") as conn:
            records = await conn.fetch(CREATE, *params)
        return [_key(r) for r in records]

    async def destroy(self, owner: Owner) -> bool:
        async with connection_from(self._pool, "destroying a data key") as conn:
            status = await conn.execute(DESTROY, owner.tenant, owner.user_id)
        return bool(status.endswith(" 1"))

    async def stale(self, master_id: str, after: Owner | None, limit: int) -> list[WrappedKey]:
        start = after or Owner("", "")
        async with connection_from(self._pool, "listing data keys to rewrap") as conn:
            records = await conn.fetch(
                STALE_FIRST if after is None else STALE_AFTER,
                master_id, start.tenant, start.user_id, limit,
            )
        return [_key(r) for r in records]

    async def rewrap(self, keys: Sequence[WrappedKey], was: Sequence[str], now: datetime) -> int:
        if not keys:
            return 0
        params = (
            [k.id for k in keys], [k.master_id for k in keys], [k.envelope for k in keys],
            list(was), now,
        )
        async with connection_from(self._pool, "rewrapping data keys") as conn:
            status = await conn.execute(REWRAP, *params)
        return int(status.rsplit(" ", 1)[1])
