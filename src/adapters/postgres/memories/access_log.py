"""Deferred access recording: accesses queue in memory and reach memory_heat in batches."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

import asyncpg

from memlane.adapters.postgres.deferred import DeferredWrites
from memlane.adapters.postgres.memories import sql
from memlane.adapters.postgres.memories.rows import DECAY_CONSTANTS, affected_rows
from memlane.domain.model import Owner

Access = tuple[str, str, UUID, datetime, float]


async def write_accesses(connection: asyncpg.Connection, accesses: Sequence[Access]) -> int:
    """Record these accesses (decay banked, clock restarted) all or none: the one place
    access recording is written, deferred or not. Returns the rows updated."""
    parts = rounds(accesses)
    if len(parts) == 1:  # one statement is atomic alone: no BEGIN and COMMIT round trips
        return await _write_round(connection, parts[0])
    updated = 0
    async with connection.transaction():
        for part in parts:
            updated += await _write_round(connection, part)
    return updated


async def _write_round(connection: asyncpg.Connection, part: Sequence[Access]) -> int:
    status = await connection.execute(
        sql.RECORD_ACCESSES,
        [a[0] for a in part], [a[1] for a in part], [a[2] for a in part],
        [a[3] for a in part], [a[4] for a in part],
        *DECAY_CONSTANTS,
    )
    return affected_rows(status)


def rounds(accesses: Sequence[Access]) -> list[list[Access]]:
    """Split into rounds in which each memory appears at most once, keeping arrival order."""
    out: list[list[Access]] = []
    seen: dict[tuple[str, str, UUID], int] = {}
    for access in accesses:
        key = (access[0], access[1], access[2])
        index = seen.get(key, 0)
        seen[key] = index + 1
        if index == len(out):
            out.append([])
        out[index].append(access)
    return out


class DeferredAccessLog(DeferredWrites[Access]):
    """Accesses taken without waiting, written `flush_interval_ms` later, together: a context
    request then costs no UPDATE and no commit."""

    what = "access"

    def add(
        self, owner: Owner, memory_ids: Sequence[UUID], now: datetime, base_rate: float
    ) -> None:
        # One access per memory per request.
        self.queue([(owner.tenant, owner.user_id, i, now, base_rate)
                    for i in dict.fromkeys(memory_ids)])

    async def write(self, connection: asyncpg.Connection, batch: Sequence[Access]) -> int:
        return await write_accesses(connection, batch)
