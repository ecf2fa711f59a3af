"""FakeMemoryStore: an in-memory MemoryStorePort with the PostgreSQL adapter's semantics."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import replace
from uuid import UUID

from memlane.domain.errors import MemoryNotFound
from memlane.domain.model import (
    Cursor,
    MemoryFilter,
    Nearby,
    Owner,
    Page,
    StoredMemory,
    Vector,
)
from memlane.ports.memories.store import MemoryStorePort, MemoryWriteSession
from tests.fakes.memory_table import FakeMemoryTable, position


class _FakeWriteSession(MemoryWriteSession):
    def __init__(self, table: FakeMemoryTable, owner: Owner) -> None:
        self._table = table
        self._owner = owner

    async def nearest_many(
        self, embeddings: Sequence[Vector], neighbours: int = 1
    ) -> list[Nearby]:
        found = [self._table._nearby(self._owner, e, neighbours) for e in embeddings]
        await asyncio.sleep(0)  # a real query yields before it answers: racing writers run here
        return found

    async def read_many(self, memory_ids: Sequence[UUID]) -> list[StoredMemory]:
        rows = self._table._rows.get(self._owner, {})
        found = [self._table._copy(rows[i]) for i in dict.fromkeys(memory_ids) if i in rows]
        return [replace(r, keywords=(), embedding=None) for r in found]

    async def insert_many(self, stored: Sequence[StoredMemory]) -> None:
        rows = self._table._rows[self._owner]
        ids = [s.id for s in stored]
        for row in stored:
            self._table._check(row, self._owner)
        if len(set(ids)) != len(ids) or any(i in rows for i in ids):
            raise ValueError("duplicate memory id")  # a primary-key violation: nothing written
        for row in stored:
            rows[row.id] = self._table._copy(self._table._arrived(row, None))

    async def replace_many(self, stored: Sequence[StoredMemory]) -> None:
        rows = self._table._rows[self._owner]
        for row in stored:
            self._table._check(row, self._owner)
        missing = next((row.id for row in stored if row.id not in rows), None)
        if missing is not None:
            raise MemoryNotFound(missing)
        for row in stored:
            rows[row.id] = self._table._copy(self._table._arrived(row, rows[row.id]))


class FakeMemoryStore(MemoryStorePort):
    """Reads and writes on the shared FakeMemoryTable."""

    def __init__(self, table: FakeMemoryTable) -> None:
        self._table = table

    @asynccontextmanager
    async def _session(self, owner: Owner) -> AsyncIterator[MemoryWriteSession]:
        async with self._table._locks[owner]:
            yield _FakeWriteSession(self._table, owner)

    def write_session(self, owner: Owner) -> AbstractAsyncContextManager[MemoryWriteSession]:
        return self._session(owner)

    async def get(self, owner: Owner, memory_id: UUID) -> StoredMemory | None:
        row = self._table._rows.get(owner, {}).get(memory_id)
        return None if row is None else self._table._copy(row)

    async def get_many(
        self, owner: Owner, memory_ids: Sequence[UUID], *, indexed: bool = True
    ) -> list[StoredMemory]:
        rows = self._table._rows.get(owner, {})
        found = [self._table._copy(rows[i]) for i in dict.fromkeys(memory_ids) if i in rows]
        return found if indexed else [replace(r, keywords=(), embedding=None) for r in found]

    async def update(self, stored: StoredMemory) -> bool:
        self._table._check(stored)
        rows = self._table._rows.get(stored.owner, {})
        if stored.id not in rows:
            return False
        rows[stored.id] = self._table._copy(self._table._arrived(stored, rows[stored.id]))
        return True

    async def delete(self, owner: Owner, memory_id: UUID) -> bool:
        return bool(self._table.remove(owner, [memory_id]))

    async def delete_all(self, owner: Owner) -> int:
        self._table.erasures[owner] += 1  # the import ledger goes with an erasure only
        rows = self._table._rows.pop(owner, {})
        return len(rows)

    async def export(self, owner: Owner) -> AsyncIterator[StoredMemory]:
        for row in sorted(self._table._all(owner), key=position):
            yield self._table._copy(row)

    # Last, because inside the class body its name shadows the builtin in annotations.
    async def list(
        self, owner: Owner, filters: MemoryFilter, cursor: Cursor | None, limit: int
    ) -> Page[StoredMemory]:
        rows = sorted(self._table._all(owner), key=position, reverse=True)
        if cursor is not None:
            rows = [r for r in rows if position(r) < (cursor.created_at, cursor.id)]
        rows = [r for r in rows if _matches(r, filters)][: limit + 1]
        more = len(rows) > limit
        items = [self._table._copy(r) for r in rows[:limit]]
        last = items[-1] if more and items else None
        return Page(items, None if last is None else Cursor(last.created_at, last.id))


def _matches(row: StoredMemory, filters: MemoryFilter) -> bool:
    return (
        (filters.memory_type is None or row.memory_type == filters.memory_type)
        and (filters.tag is None or filters.tag in row.tags)
        and (filters.conversation_id is None or row.conversation_id == filters.conversation_id)
        and (filters.min_importance is None or row.importance >= filters.min_importance)
        and (filters.current is None or (row.valid_until is None) == filters.current)
    )
