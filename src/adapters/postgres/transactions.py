"""PostgresTransactionAdapter: one owner's transaction, which this family's adapters join."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import cast

import asyncpg

from memlane.adapters.postgres.errors import lost_mid_query, storage_errors
from memlane.adapters.postgres.memories import sql
from memlane.domain.model import Owner
from memlane.ports.security import TransactionPort


@dataclass(frozen=True, slots=True)
class _Open:
    pool: asyncpg.Pool
    connection: asyncpg.Connection
    owner: Owner
    task: asyncio.Task[object] | None


# The transaction the current task has open. Only that task joins it: a task it starts
# inherits the variable but not the right to use the connection concurrently.
_OPEN: ContextVar[_Open | None] = ContextVar("memlane_transaction", default=None)


def joined(pool: asyncpg.Pool) -> _Open | None:
    """The transaction this task has open on `pool`, if any."""
    current = _OPEN.get()
    if current is None or current.pool is not pool or current.task is not asyncio.current_task():
        return None
    return current


@asynccontextmanager
async def owner_transaction(pool: asyncpg.Pool, owner: Owner) -> AsyncIterator[asyncpg.Connection]:
    """Open (or join) a transaction holding the owner's advisory lock; yield its connection.

    Inside another owner's transaction this opens an independent one (its own connection and
    commit), current until it ends: two owners' writes never share a transaction."""
    current = joined(pool)
    if current is not None and current.owner == owner:
        yield current.connection
        return
    async with storage_errors("running a transaction"), pool.acquire() as proxy:
        connection = cast(asyncpg.Connection, proxy)
        # A pooled connection whose server was killed may fail even its BEGIN with a stale
        # protocol state: an outage (503), like a lost connection anywhere else.
        async with lost_mid_query(connection), connection.transaction():
            # Transaction-scoped: released at commit or rollback, even if the caller raises.
            await connection.execute(sql.LOCK_OWNER, owner.tenant, owner.user_id)
            token = _OPEN.set(_Open(pool, connection, owner, asyncio.current_task()))
            try:
                yield connection
            finally:
                _OPEN.reset(token)


class PostgresTransactionAdapter(TransactionPort):
    """TransactionPort on one pool: store, graph and audit adapters of the pool join it."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    @asynccontextmanager
    async def _owner(self, owner: Owner) -> AsyncIterator[None]:
        async with owner_transaction(self._pool, owner):
            yield

    def owner(self, owner: Owner) -> AbstractAsyncContextManager[None]:
        return self._owner(owner)
