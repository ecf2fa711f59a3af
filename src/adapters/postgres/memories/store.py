"""PostgresMemoryStoreAdapter: MemoryStorePort on PostgreSQL, every query scoped by owner."""

from __future__ import annotations

import builtins
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from uuid import UUID

import asyncpg

from memlane.adapters.postgres.memories import sql, write_sql
from memlane.adapters.postgres.memories.rows import to_stored, to_stored_many
from memlane.adapters.postgres.memories.write_session import PostgresWriteSession, batch_params
from memlane.adapters.postgres.pool import connection_from
from memlane.adapters.postgres.transactions import owner_transaction
from memlane.adapters.postgres.vector_checks import dimension_errors
from memlane.domain.model import Cursor, MemoryFilter, Owner, Page, StoredMemory
from memlane.ports.memories import MemoryStorePort, MemoryWriteSession

EXPORT_PREFETCH_ROWS = 200
# The first fetch sorts every row of the user before the first one streams: a user of 100k
# memories took more than the pool's 10 s command timeout on a loaded 2-core machine.
EXPORT_FETCH_TIMEOUT_S = 600.0


class PostgresMemoryStoreAdapter(MemoryStorePort):
    """Sealed memories in `memories` (wide row) and `memory_heat` (hot columns)."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    def _connection(self) -> AbstractAsyncContextManager[asyncpg.Connection]:
        return connection_from(self._pool)

    @asynccontextmanager
    async def _session(self, owner: Owner) -> AsyncIterator[MemoryWriteSession]:
        # The owner's transaction and lock, or the one this task already has open (a write
        # inside `TransactionPort.owner`, so its audit events commit with it).
        async with owner_transaction(self._pool, owner) as connection:
            yield PostgresWriteSession(connection, owner)

    def write_session(self, owner: Owner) -> AbstractAsyncContextManager[MemoryWriteSession]:
        return self._session(owner)

    async def get(self, owner: Owner, memory_id: UUID) -> StoredMemory | None:
        async with self._connection() as connection:
            record = await connection.fetchrow(sql.GET, owner.tenant, owner.user_id, memory_id)
        return None if record is None else to_stored(record)

    async def get_many(
        self, owner: Owner, memory_ids: Sequence[UUID], *, indexed: bool = True
    ) -> builtins.list[StoredMemory]:
        if not memory_ids:
            return []
        statement = sql.GET_MANY if indexed else sql.GET_MANY_UNINDEXED
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
                filters.current,
            )
        items = to_stored_many(records[:limit])
        more = len(records) > limit and bool(items)
        next_cursor = Cursor(items[-1].created_at, items[-1].id) if more else None
        return Page(items, next_cursor)

    async def update(self, stored: StoredMemory) -> bool:
        async with self._connection() as connection, dimension_errors():
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
                sql.EXPORT, owner.tenant, owner.user_id, prefetch=EXPORT_PREFETCH_ROWS,
                timeout=EXPORT_FETCH_TIMEOUT_S,
            )
            async for record in cursor:
                yield to_stored(record)
