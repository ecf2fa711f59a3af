"""PostgresInstallationAdapter: the key fingerprint in memlane_meta, the stored embeddings."""

from __future__ import annotations

import asyncpg

from memlane.adapters.postgres.embedding_models import (
    check_embedding_model,
    stored_embedding_models,
)
from memlane.adapters.postgres.memories import sql
from memlane.adapters.postgres.pool import check_embedding_dimension, connection_from
from memlane.adapters.postgres.reembed import reset_embeddings
from memlane.ports.installation import InstallationPort

KEY_FINGERPRINT_META = "encryption_key_fingerprint"
ANY_MEMORY = "SELECT EXISTS (SELECT 1 FROM memories)"
# The first fingerprint is recorded only while no memory exists: a lost record over existing
# data must not be replaced by whatever key happens to be loaded.
RECORD_FINGERPRINT_IF_FRESH = """
INSERT INTO memlane_meta (key, value)
SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM memories)
ON CONFLICT (key) DO NOTHING
"""

REPLACE_FINGERPRINT = "UPDATE memlane_meta SET value = $3 WHERE key = $1 AND value = $2"


class PostgresInstallationAdapter(InstallationPort):
    """Facts about the stored data as a whole, read and written on the pool."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def key_fingerprint(self, offered: str) -> str | None:
        async with connection_from(self._pool) as connection:
            await connection.execute(RECORD_FINGERPRINT_IF_FRESH, KEY_FINGERPRINT_META, offered)
            stored: str | None = await connection.fetchval(sql.GET_META, KEY_FINGERPRINT_META)
        return stored

    async def recorded_fingerprint(self) -> str | None:
        async with connection_from(self._pool) as connection:
            stored: str | None = await connection.fetchval(sql.GET_META, KEY_FINGERPRINT_META)
        return stored

    async def replace_fingerprint(self, old: str, new: str) -> bool:
        async with connection_from(self._pool) as connection:
            status = await connection.execute(
                REPLACE_FINGERPRINT, KEY_FINGERPRINT_META, old, new
            )
        return bool(status.endswith(" 1"))

    async def has_memories(self) -> bool:
        async with connection_from(self._pool) as connection:
            return bool(await connection.fetchval(ANY_MEMORY))

    async def check_embedding_dimension(self, model: str, dimension: int) -> None:
        await check_embedding_dimension(self._pool, model, dimension)

    async def check_embedding_model(self, model: str, accepted: frozenset[str]) -> None:
        await check_embedding_model(self._pool, model, accepted)

    async def embedding_models(self) -> list[str]:
        return await stored_embedding_models(self._pool)

    async def reset_embeddings(self, dimension: int) -> None:
        await reset_embeddings(self._pool, dimension)
