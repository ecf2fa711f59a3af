"""PostgresMemoryAdapter: MemoryPort on PostgreSQL + pgvector, every query scoped by owner."""

from __future__ import annotations

import asyncio
import builtins
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import datetime
from uuid import UUID

import asyncpg

from memlane.adapters.postgres import candidates, sql, write_sql
from memlane.adapters.postgres.access_log import DeferredAccessLog
from memlane.adapters.postgres.pool import connection_from
from memlane.adapters.postgres.rows import (
    DECAY_FLOORS,
    DECAY_MODIFIERS,
    DECAY_TYPES,
    affected_rows,
    to_stored,
    to_stored_many,
    vector_array_param,
)
from memlane.adapters.postgres.write_session import PostgresWriteSession, batch_params
from memlane.domain.errors import EmbeddingDimensionMismatch
from memlane.domain.model import (
    Cursor,
    MemoryFilter,
    MemoryStats,
    Owner,
    Page,
    SearchCandidate,
    StoredMemory,
    Vector,
)
from memlane.ports.memory import MemoryPort, MemoryWriteSession

EXPORT_PREFETCH_ROWS = 200
# asyncpg reads timeout=None as "the pool's command_timeout" (10 s by default), which a
# decay or cleanup over a million rows can exceed: whole-table maintenance gets an hour.
MAINTENANCE_TIMEOUT_S = 3600.0
# A cleanup over every owner runs as this many statements over disjoint owners, side by side
# (one database core each; the pool must allow as many connections).
MAINTENANCE_SHARES = 2
# A lexical search reads at most this many postings of each query term, best first (sql.py
# SEARCH_LEXICAL_SCORED): exact BM25 for terms held by at most this many of the owner's
# memories, so for every term of an owner with at most this many memories.
LEXICAL_POSTINGS_PER_TERM = 1000


@asynccontextmanager
async def _dimension_errors() -> AsyncIterator[None]:
    """A vector of the wrong size is a configuration problem, not a bad query."""
    try:
        yield
    except asyncpg.DataError as exc:
        if "dimensions" in str(exc):
            raise EmbeddingDimensionMismatch(
                f"{exc}; run `memlane reembed` after changing the embedding model"
            ) from exc
        raise


class PostgresMemoryAdapter(MemoryPort):
    """Sealed memories in `memories` (wide row) and `memory_heat` (hot columns)."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        dimension: int | None = None,
        access_flush_ms: int | None = None,
        lexical_postings_per_term: int = LEXICAL_POSTINGS_PER_TERM,
        maintenance_shares: int = MAINTENANCE_SHARES,
    ) -> None:
        """`dimension`, when given, is checked on every query vector before the database sees
        it (an empty user's search would otherwise succeed with the wrong model).

        `access_flush_ms`, when given, defers `record_access` off the request path: accesses
        are queued and written together that many ms later (call `close()` before the pool
        closes so none is lost). Without it each call writes at once.

        `lexical_postings_per_term` bounds the postings a lexical search reads per query term
        (see LEXICAL_POSTINGS_PER_TERM); a larger one is closer to full BM25 for big owners.

        `maintenance_shares`: how many statements over disjoint owners a cleanup of every
        owner runs side by side (see MAINTENANCE_SHARES).
        """
        self._pool = pool
        self._postings_per_term = lexical_postings_per_term
        self._maintenance_shares = max(1, maintenance_shares)
        self._dimension = dimension
        self._access_log = (
            None if access_flush_ms is None else DeferredAccessLog(pool, access_flush_ms)
        )

    async def close(self) -> None:
        """Write accesses still queued (a no-op when access recording is not deferred)."""
        if self._access_log is not None:
            await self._access_log.close()

    def _check_query(self, embedding: Vector) -> None:
        if self._dimension is not None and len(embedding) != self._dimension:
            raise EmbeddingDimensionMismatch(
                f"query vector has {len(embedding)} dimensions, the database stores "
                f"{self._dimension}; run `memlane reembed` after changing the embedding model"
            )

    def _connection(self) -> AbstractAsyncContextManager[asyncpg.Connection]:
        return connection_from(self._pool)

    @asynccontextmanager
    async def _session(self, owner: Owner) -> AsyncIterator[MemoryWriteSession]:
        async with self._connection() as connection, connection.transaction():
            # Transaction-scoped: released at commit or rollback, even if the caller raises.
            await connection.execute(sql.LOCK_OWNER, owner.tenant, owner.user_id)
            yield PostgresWriteSession(connection, owner)

    def write_session(self, owner: Owner) -> AbstractAsyncContextManager[MemoryWriteSession]:
        return self._session(owner)

    async def get(self, owner: Owner, memory_id: UUID) -> StoredMemory | None:
        async with self._connection() as connection:
            record = await connection.fetchrow(sql.GET, owner.tenant, owner.user_id, memory_id)
        return None if record is None else to_stored(record)

    async def get_many(
        self, owner: Owner, memory_ids: Sequence[UUID]
    ) -> builtins.list[StoredMemory]:
        return await self._read_many(sql.GET_MANY, owner, memory_ids)

    async def get_many_unindexed(
        self, owner: Owner, memory_ids: Sequence[UUID]
    ) -> builtins.list[StoredMemory]:
        return await self._read_many(sql.GET_MANY_UNINDEXED, owner, memory_ids)

    async def _read_many(
        self, statement: str, owner: Owner, memory_ids: Sequence[UUID]
    ) -> builtins.list[StoredMemory]:
        if not memory_ids:
            return []
        async with self._connection() as connection:
            records = await connection.fetch(
                statement, owner.tenant, owner.user_id, list(memory_ids)
            )
        return to_stored_many(records)

    async def list(
        self, owner: Owner, filters: MemoryFilter, cursor: Cursor | None, limit: int
    ) -> Page[StoredMemory]:
        async with self._connection() as connection:
            records = await connection.fetch(
                sql.LIST,
                owner.tenant,
                owner.user_id,
                None if filters.memory_type is None else filters.memory_type.value,
                filters.tag,
                filters.conversation_id,
                filters.min_importance,
                None if cursor is None else cursor.created_at,
                None if cursor is None else cursor.id,
                limit + 1,  # one extra row tells whether another page follows
            )
        items = to_stored_many(records[:limit])
        more = len(records) > limit and bool(items)
        next_cursor = Cursor(items[-1].created_at, items[-1].id) if more else None
        return Page(items, next_cursor)

    async def dense_candidates(
        self, owner: Owner, embedding: Vector, limit: int, min_similarity: float = -1.0
    ) -> builtins.list[SearchCandidate]:
        self._check_query(embedding)
        async with self._connection() as connection, _dimension_errors():
            return await candidates.dense(connection, owner, embedding, limit, min_similarity)

    async def lexical_candidates(
        self, owner: Owner, keywords: Sequence[str], limit: int
    ) -> builtins.list[SearchCandidate]:
        terms = [k for k in keywords if k]
        if not terms:
            return []
        async with self._connection() as connection:
            return await candidates.lexical(
                connection, owner, terms, limit, self._postings_per_term
            )

    async def neighbour_candidates(
        self, owner: Owner, memory_ids: Sequence[UUID], span: int, embedding: Vector | None
    ) -> builtins.list[SearchCandidate]:
        if not memory_ids or span < 1:
            return []
        if embedding is not None:
            self._check_query(embedding)
        async with self._connection() as connection, _dimension_errors():
            return await candidates.neighbours(connection, owner, memory_ids, span, embedding)

    async def similarities(
        self, owner: Owner, memory_ids: Sequence[UUID], embedding: Vector
    ) -> dict[UUID, float]:
        if not memory_ids:
            return {}
        self._check_query(embedding)
        async with self._connection() as connection, _dimension_errors():
            return await candidates.similarities(connection, owner, memory_ids, embedding)

    async def update(self, stored: StoredMemory) -> bool:
        async with self._connection() as connection, _dimension_errors():
            count = await connection.fetchval(
                write_sql.REPLACE_MANY,
                stored.owner.tenant,
                stored.owner.user_id,
                *batch_params([stored]),
            )
        return bool(count)

    async def delete(self, owner: Owner, memory_id: UUID) -> bool:
        async with self._connection() as connection:
            count = await connection.fetchval(sql.DELETE, owner.tenant, owner.user_id, memory_id)
        return bool(count)

    async def delete_all(self, owner: Owner) -> int:
        async with self._connection() as connection:
            return int(await connection.fetchval(sql.DELETE_ALL, owner.tenant, owner.user_id))

    async def export(self, owner: Owner) -> AsyncIterator[StoredMemory]:
        # A server-side cursor needs a transaction; rows stream without loading them all.
        async with self._connection() as connection, connection.transaction():
            cursor = connection.cursor(
                sql.EXPORT, owner.tenant, owner.user_id, prefetch=EXPORT_PREFETCH_ROWS
            )
            async for record in cursor:
                yield to_stored(record)

    async def stats(self, owner: Owner | None, now: datetime, base_rate: float) -> MemoryStats:
        params: list[object] = [now, base_rate, DECAY_TYPES, DECAY_MODIFIERS, DECAY_FLOORS]
        statement = sql.STATS_ALL
        if owner is not None:
            statement = sql.STATS_OWNER
            params += [owner.tenant, owner.user_id]
        async with self._connection() as connection:
            records = await connection.fetch(statement, *params)
        total = sum(int(r["total"]) for r in records)
        importance_sum = sum(float(r["importance_sum"]) for r in records)
        return MemoryStats(
            total=total,
            by_type={r["memory_type"]: int(r["total"]) for r in records},
            with_embeddings=sum(int(r["with_embeddings"]) for r in records),
            avg_importance=importance_sum / total if total else 0.0,
        )

    async def record_access(
        self, owner: Owner, memory_ids: Sequence[UUID], now: datetime, base_rate: float
    ) -> int:
        if not memory_ids:
            return 0
        if self._access_log is not None:
            self._access_log.add(owner, memory_ids, now, base_rate)
            return len(set(memory_ids))
        async with self._connection() as connection:
            status = await connection.execute(
                sql.RECORD_ACCESS,
                now,
                base_rate,
                DECAY_TYPES,
                DECAY_MODIFIERS,
                DECAY_FLOORS,
                owner.tenant,
                owner.user_id,
                list(memory_ids),
            )
        return affected_rows(status)

    async def materialise_decay(self, owner: Owner | None, now: datetime, base_rate: float) -> int:
        params: list[object] = [now, base_rate, DECAY_TYPES, DECAY_MODIFIERS, DECAY_FLOORS]
        statement = sql.MATERIALISE_DECAY_ALL
        if owner is not None:
            statement = sql.MATERIALISE_DECAY_OWNER
            params += [owner.tenant, owner.user_id]
        async with self._connection() as connection:
            # Maintenance over every row may take longer than a request's statement timeout.
            status = await connection.execute(statement, *params, timeout=MAINTENANCE_TIMEOUT_S)
        return affected_rows(status)

    async def cleanup(
        self, owner: Owner | None, min_importance: float, now: datetime, base_rate: float
    ) -> int:
        params: list[object] = [
            now, base_rate, DECAY_TYPES, DECAY_MODIFIERS, DECAY_FLOORS, min_importance
        ]
        if owner is not None:
            async with self._connection() as connection:
                count = await connection.fetchval(
                    sql.CLEANUP_OWNER, *params, owner.tenant, owner.user_id,
                    timeout=MAINTENANCE_TIMEOUT_S,
                )
            return int(count)
        shares = self._maintenance_shares

        async def share(index: int) -> int:
            async with self._connection() as connection:
                count = await connection.fetchval(
                    sql.CLEANUP_SHARE, *params, shares, index, timeout=MAINTENANCE_TIMEOUT_S
                )
            return int(count)

        # Deleting rows fires the term-statistics and postings triggers: the bulk of the
        # work (7 of 10 s for 129k memories) and single-threaded per statement.
        return sum(await asyncio.gather(*(share(i) for i in range(shares))))

    async def missing_embeddings(self, limit: int) -> builtins.list[StoredMemory]:
        async with self._connection() as connection:
            return to_stored_many(await connection.fetch(sql.MISSING_EMBEDDINGS, limit))

    async def set_embeddings(self, items: Sequence[tuple[Owner, UUID, Vector]], model: str) -> int:
        if not items:
            return 0
        async with self._connection() as connection, _dimension_errors():
            status = await connection.execute(
                sql.SET_EMBEDDINGS,
                [owner.tenant for owner, _, _ in items],
                [owner.user_id for owner, _, _ in items],
                [memory_id for _, memory_id, _ in items],
                vector_array_param([vector for _, _, vector in items]),
                model,
            )
        return affected_rows(status)

    # -- memlane_meta: facts about the data (key fingerprint, embedding model) -------------
    async def get_meta(self, key: str) -> str | None:
        async with self._connection() as connection:
            value: str | None = await connection.fetchval(sql.GET_META, key)
        return value

    async def set_meta(self, key: str, value: str) -> None:
        async with self._connection() as connection:
            await connection.execute(sql.SET_META, key, value)

    async def get_or_set_meta(self, key: str, value: str) -> str:
        """The stored value, storing `value` first if there is none (race-free first write)."""
        async with self._connection() as connection:
            await connection.execute(sql.INSERT_META_IF_ABSENT, key, value)
            stored: str = await connection.fetchval(sql.GET_META, key)
        return stored
