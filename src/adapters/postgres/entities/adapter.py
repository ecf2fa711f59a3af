"""PostgresEntityAdapter: EntityPort on `memory_entities` and `memory_mentions`."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from uuid import UUID

import asyncpg

from memlane.adapters.postgres.entities import sql as entity_sql
from memlane.adapters.postgres.pool import connection_from
from memlane.domain.entities import (
    COMMON_NAME_FLOOR,
    MIN_SALIENCE,
    EntityKind,
    SealedMention,
    StoredMention,
)
from memlane.domain.model import Owner
from memlane.ports.entities import EntityPort


class PostgresEntityAdapter(EntityPort):
    """Entities of one owner at a time, always scoped by tenant and user; one statement
    per call."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def add_mentions(
        self, owner: Owner, mentions: Sequence[SealedMention], now: datetime
    ) -> int:
        if not mentions:
            return 0
        async with connection_from(self._pool) as connection:
            stored = await connection.fetchval(
                entity_sql.ADD_MENTIONS, owner.tenant, owner.user_id, now,
                [m.memory_id for m in mentions], [m.entity_id for m in mentions],
                [m.name_index for m in mentions], [m.kind.value for m in mentions],
                [bytes(m.label) for m in mentions], [float(m.salience) for m in mentions],
                MIN_SALIENCE,
            )
        return int(stored)

    async def mentioning(
        self, owner: Owner, name_indexes: Collection[str], limit: int, max_share: float = 1.0
    ) -> list[UUID]:
        if not name_indexes or limit < 1:
            return []
        async with connection_from(self._pool) as connection:
            records = await connection.fetch(
                entity_sql.MENTIONING, owner.tenant, owner.user_id, list(name_indexes), limit,
                float(max_share), COMMON_NAME_FLOOR,
            )
        return [r["memory_id"] for r in records]

    async def mentions_of(self, owner: Owner, memory_ids: Collection[UUID]) -> list[StoredMention]:
        if not memory_ids:
            return []
        async with connection_from(self._pool) as connection:
            records = await connection.fetch(
                entity_sql.MENTIONS_OF, owner.tenant, owner.user_id, list(memory_ids)
            )
        return [
            StoredMention(
                memory_id=r["memory_id"], entity_id=r["entity_id"], kind=EntityKind(r["kind"]),
                label=bytes(r["label"]), salience=float(r["salience"]),
                entity_weight=float(r["weight"]),
            )
            for r in records
        ]

    async def known(self, owner: Owner, name_indexes: Collection[str]) -> set[str]:
        if not name_indexes:
            return set()
        async with connection_from(self._pool) as connection:
            records = await connection.fetch(
                entity_sql.KNOWN, owner.tenant, owner.user_id, list(name_indexes)
            )
        return {r["name_index"] for r in records}
