"""PostgresFactAdapter: FactPort on the `facts` table, one statement per call."""

from __future__ import annotations

import builtins
from collections.abc import Collection, Sequence
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import asyncpg

from memlane.adapters.postgres.facts import sql as fact_sql
from memlane.adapters.postgres.memories import affected_rows
from memlane.adapters.postgres.pool import Row, connection_from
from memlane.domain.facts import FactFilter, FactType, StoredFact, TimeSpan
from memlane.domain.model import Cursor, Owner, Page
from memlane.ports.facts import FactPort


def to_stored_fact(record: Row) -> StoredFact:
    """A StoredFact from one row of fact_sql.FACT_COLUMNS."""
    score = record["user_fact_score"]
    return StoredFact(
        id=record["id"], owner=Owner(record["tenant"], record["user_id"]),
        subject=bytes(record["subject"]), object=bytes(record["object"]),
        subject_index=record["subject_index"], object_index=record["object_index"],
        relation=record["relation"], fact_type=FactType(record["fact_type"]),
        time_span=TimeSpan(record["time_span"]), confidence=float(record["confidence"]),
        user_fact_score=None if score is None else float(score),
        source_memory_id=record["source_memory_id"], source_time=record["source_time"],
        valid_from=record["valid_from"], valid_until=record["valid_until"],
        superseded_by=record["superseded_by"], created_at=record["created_at"],
        updated_at=record["updated_at"],
        relation_sealed=None if record["relation_sealed"] is None
        else bytes(record["relation_sealed"]),
    )


def _columns(facts: Sequence[StoredFact], *names: str) -> list[list[Any]]:
    """One array per column for `unnest`; enums as their values."""
    def value(fact: StoredFact, name: str) -> Any:
        raw = getattr(fact, name)
        return raw.value if isinstance(raw, FactType | TimeSpan) else raw
    return [[value(f, name) for f in facts] for name in names]


_INSERTED = (
    "id", "subject", "object", "subject_index", "object_index", "relation", "fact_type",
    "time_span", "confidence", "user_fact_score", "source_memory_id", "source_time",
    "valid_from", "valid_until", "superseded_by", "created_at", "updated_at", "relation_sealed",
)
_UPDATED = (
    "id", "object", "object_index", "fact_type", "time_span", "confidence", "user_fact_score",
    "valid_until", "superseded_by", "updated_at",
)


class PostgresFactAdapter(FactPort):
    """Facts of one owner at a time, always scoped by tenant and user."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def get(self, owner: Owner, fact_id: UUID) -> StoredFact | None:
        async with connection_from(self._pool) as connection:
            record = await connection.fetchrow(fact_sql.GET, owner.tenant, owner.user_id, fact_id)
        return None if record is None else to_stored_fact(record)

    async def list(
        self, owner: Owner, filters: FactFilter, cursor: Cursor | None, limit: int, now: datetime
    ) -> Page[StoredFact]:
        async with connection_from(self._pool) as connection:
            records = await connection.fetch(
                fact_sql.LIST, owner.tenant, owner.user_id,
                None if filters.fact_type is None else filters.fact_type.value,
                filters.current, now,
                None if cursor is None else cursor.created_at,
                None if cursor is None else cursor.id,
                limit + 1,
            )
        items = [to_stored_fact(r) for r in records[:limit]]
        more = len(records) > limit
        last = items[-1] if items and more else None
        return Page(items, None if last is None else Cursor(last.created_at, last.id))

    async def current(
        self,
        owner: Owner,
        now: datetime,
        *,
        relations: Collection[str] | None = None,
        sources: Collection[UUID] | None = None,
    ) -> builtins.list[StoredFact]:
        if (relations is not None and not relations) or (sources is not None and not sources):
            return []
        async with connection_from(self._pool) as connection:
            records = await connection.fetch(
                fact_sql.CURRENT, owner.tenant, owner.user_id, now,
                None if relations is None else list(relations),
                None if sources is None else list(sources),
            )
        return [to_stored_fact(r) for r in records]

    async def save(
        self, owner: Owner, new: Sequence[StoredFact], ended: Sequence[StoredFact],
        *, derived: bool = False,
    ) -> int:
        if not new and not ended:
            return 0
        statement = fact_sql.SAVE_RELAXED if derived else fact_sql.SAVE
        async with connection_from(self._pool) as connection:
            record = await connection.fetchrow(
                statement, owner.tenant, owner.user_id,
                *_columns(new, *_INSERTED), *_columns(ended, *_UPDATED),
            )
        return int(record["stored"]) if record is not None else 0

    async def update(self, stored: StoredFact) -> bool:
        owner = stored.owner
        async with connection_from(self._pool) as connection:
            status = await connection.execute(
                fact_sql.UPDATE_MANY, owner.tenant, owner.user_id, *_columns([stored], *_UPDATED)
            )
        return affected_rows(status) == 1

    async def delete(self, owner: Owner, fact_id: UUID) -> bool:
        async with connection_from(self._pool) as connection:
            status = await connection.execute(
                fact_sql.DELETE, owner.tenant, owner.user_id, fact_id
            )
        return affected_rows(status) == 1

    async def revive(
        self, owner: Owner, *, facts: Collection[UUID] = (), sources: Collection[UUID] = (),
        ended_of: Collection[UUID] = (), since: datetime | None = None,
    ) -> builtins.list[StoredFact]:
        now = datetime.now(UTC)
        records: list[Row] = []
        async with connection_from(self._pool) as connection:
            if facts or sources:
                records += await connection.fetch(
                    fact_sql.REVIVE, owner.tenant, owner.user_id, list(facts), list(sources),
                    now,
                )
            if ended_of and since is not None:
                records += await connection.fetch(
                    fact_sql.REVIVE_ENDED, owner.tenant, owner.user_id, list(ended_of), since,
                    now,
                )
        return sorted((to_stored_fact(r) for r in records), key=lambda f: f.id)

    async def delete_all(self, owner: Owner) -> int:
        async with connection_from(self._pool) as connection:
            status = await connection.execute(fact_sql.DELETE_ALL, owner.tenant, owner.user_id)
        return affected_rows(status)
