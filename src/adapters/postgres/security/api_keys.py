"""PostgresApiKeyAdapter: API keys in the `api_keys` table, looked up by token hash."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

import asyncpg

from memlane.adapters.postgres.pool import connection_from
from memlane.domain.security import ApiKey, Scope
from memlane.ports.security import ApiKeyPort

_COLUMNS = (
    "id, tenant, user_id, scopes, name, created_at, last_used_at, revoked_at, "
    "trusts_openwebui_headers"
)

INSERT_TENANT = "INSERT INTO tenants (id) VALUES ($1) ON CONFLICT (id) DO NOTHING"

INSERT_KEY = """
INSERT INTO api_keys
    (id, tenant, token_hash, user_id, scopes, name, created_at, trusts_openwebui_headers)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
"""

# One round trip: read the key and, only when its last_used_at is stale, touch it.
FIND_ACTIVE = f"""
WITH found AS (
    SELECT {_COLUMNS} FROM api_keys WHERE token_hash = $1 AND revoked_at IS NULL
), touched AS (
    UPDATE api_keys k SET last_used_at = $2::timestamptz
    FROM found
    WHERE k.id = found.id
      AND (k.last_used_at IS NULL OR k.last_used_at < $2::timestamptz - $3::interval)
    RETURNING k.id
)
SELECT {_COLUMNS} FROM found
"""

LIST_ALL = f"SELECT {_COLUMNS} FROM api_keys ORDER BY created_at, id"
LIST_TENANT = f"SELECT {_COLUMNS} FROM api_keys WHERE tenant = $1 ORDER BY created_at, id"
REVOKE = "UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL"


def _to_key(row: Any) -> ApiKey:
    return ApiKey(
        id=row["id"],
        tenant=row["tenant"],
        name=row["name"],
        scopes=frozenset(Scope(s) for s in row["scopes"]),
        created_at=row["created_at"],
        user_id=row["user_id"],
        last_used_at=row["last_used_at"],
        revoked_at=row["revoked_at"],
        trusts_openwebui_headers=row["trusts_openwebui_headers"],
    )


class PostgresApiKeyAdapter(ApiKeyPort):
    """ApiKeyPort on an asyncpg pool; connection failures become StorageUnavailable."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def create(self, key: ApiKey, token_hash: bytes) -> None:
        scopes = sorted(s.value for s in key.scopes)
        async with (
            connection_from(self._pool, "creating an API key") as conn,
            conn.transaction(),
        ):
            await conn.execute(INSERT_TENANT, key.tenant)
            await conn.execute(
                INSERT_KEY, key.id, key.tenant, token_hash, key.user_id, scopes,
                key.name, key.created_at, key.trusts_openwebui_headers,
            )

    async def find_active(
        self, token_hash: bytes, now: datetime, touch_after: timedelta
    ) -> ApiKey | None:
        async with connection_from(self._pool, "checking an API key") as conn:
            row = await conn.fetchrow(FIND_ACTIVE, token_hash, now, touch_after)
        return None if row is None else _to_key(row)

    async def list(self, tenant: str | None = None) -> list[ApiKey]:
        async with connection_from(self._pool, "listing API keys") as conn:
            if tenant is None:
                rows = await conn.fetch(LIST_ALL)
            else:
                rows = await conn.fetch(LIST_TENANT, tenant)
        return [_to_key(r) for r in rows]

    async def revoke(self, key_id: UUID, now: datetime) -> bool:
        async with connection_from(self._pool, "revoking an API key") as conn:
            status = await conn.execute(REVOKE, key_id, now)
        return bool(status.endswith(" 1"))
