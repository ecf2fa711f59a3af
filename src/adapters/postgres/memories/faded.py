"""PostgresFadedMemoriesAdapter: FadedMemoriesPort, the cleanup statements one owner at a time."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

import asyncpg

from memlane.adapters.postgres.memories import sql
from memlane.adapters.postgres.memories.maintenance import MAINTENANCE_TIMEOUT_S
from memlane.adapters.postgres.memories.rows import decay_params
from memlane.adapters.postgres.pool import connection_from
from memlane.domain.memories import CleanupRule
from memlane.domain.model import Owner
from memlane.domain.reach import Reach, TenantReach
from memlane.ports.memories import FadedMemoriesPort


class PostgresFadedMemoriesAdapter(FadedMemoriesPort):
    """Joins the owner's transaction when one is open (connection_from), so the audit events
    appended in it commit or roll back with the delete."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def owners(
        self, owner: Reach, rule: CleanupRule, now: datetime, base_rate: float
    ) -> list[Owner]:
        scope: tuple[str | None, str | None] = (
            (None, None) if owner is None
            else (owner.tenant, None) if isinstance(owner, TenantReach)
            else (owner.tenant, owner.user_id)
        )
        async with connection_from(self._pool) as connection:
            records = await connection.fetch(
                sql.FADED_OWNERS, *decay_params(now, base_rate), rule.min_importance,
                rule.arrived_by(now), *scope,
                timeout=MAINTENANCE_TIMEOUT_S,
            )
        return [Owner(r["tenant"], r["user_id"]) for r in records]

    async def delete(
        self, owner: Owner, rule: CleanupRule, now: datetime, base_rate: float
    ) -> list[UUID]:
        async with connection_from(self._pool) as connection:
            # The owner's transaction commits without waiting for its WAL flush: one flush
            # per owner was half a cleanup's time over 1,000 owners. A crash can lose only
            # the last few such commits whole (deletes and their audit events together), and
            # the next cleanup deletes those memories again.
            if connection.is_in_transaction():
                await connection.execute(sql.ASYNC_COMMIT)
            records = await connection.fetch(
                sql.DELETE_FADED_OWNER, *decay_params(now, base_rate), rule.min_importance,
                rule.arrived_by(now),
                owner.tenant, owner.user_id, timeout=MAINTENANCE_TIMEOUT_S,
            )
        return sorted(r["id"] for r in records)
