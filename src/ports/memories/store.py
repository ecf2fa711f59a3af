"""Storing and reading memories: the memory store and its per-owner write session."""

from __future__ import annotations

import builtins
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager
from uuid import UUID

from memlane.domain.model import (
    Cursor,
    MemoryFilter,
    Nearby,
    Owner,
    Page,
    StoredMemory,
    Vector,
)


class MemoryWriteSession(ABC):
    """A per-owner critical section: the dedup probe and the writes are atomic together.

    Each method is one statement, whatever the batch size.
    """

    @abstractmethod
    async def nearest_many(
        self, embeddings: Sequence[Vector], neighbours: int = 1
    ) -> builtins.list[Nearby]:
        """For each embedding, the owner's most similar memory in full (None if no memory has
        an embedding) and up to `neighbours` nearest as (id, cosine), best first."""

    @abstractmethod
    async def read_many(self, memory_ids: Sequence[UUID]) -> builtins.list[StoredMemory]:
        """The owner's memories among these ids, without index terms or embedding, read on
        the session's own connection (a second connection inside the lock could wait for a
        pool the other writers hold)."""

    @abstractmethod
    async def insert_many(self, stored: Sequence[StoredMemory]) -> None:
        """Store new memories of this owner."""

    @abstractmethod
    async def replace_many(self, stored: Sequence[StoredMemory]) -> None:
        """Overwrite existing memories of this owner (all fields, heat included); raises
        MemoryNotFound, writing nothing, if any of them is gone."""


class MemoryStorePort(ABC):
    """Sealed memories by id and by owner; every method is scoped by the owner it is given."""

    @abstractmethod
    def write_session(self, owner: Owner) -> AbstractAsyncContextManager[MemoryWriteSession]:
        """Serialise writes of one owner (an advisory lock in PostgreSQL)."""

    @abstractmethod
    async def get(self, owner: Owner, memory_id: UUID) -> StoredMemory | None: ...

    @abstractmethod
    async def get_many(
        self, owner: Owner, memory_ids: Sequence[UUID], *, indexed: bool = True
    ) -> builtins.list[StoredMemory]:
        """The owner's memories among these ids, in no particular order.

        `indexed=False` leaves out what only indexing reads (keywords empty, no embedding;
        embedding_model is kept): what opening a memory for a prompt needs. Rebuilding a
        row's term list alone cost ~0.1 ms a memory."""

    @abstractmethod
    async def list(
        self, owner: Owner, filters: MemoryFilter, cursor: Cursor | None, limit: int
    ) -> Page[StoredMemory]:
        """Newest first, keyset-paginated on (created_at, id) so pages neither skip nor repeat."""

    @abstractmethod
    async def update(self, stored: StoredMemory) -> bool:
        """Overwrite an existing memory (outside a write session); False if it is gone."""

    @abstractmethod
    async def delete(self, owner: Owner, memory_id: UUID) -> bool: ...

    @abstractmethod
    async def delete_all(self, owner: Owner) -> int: ...

    @abstractmethod
    def export(self, owner: Owner) -> AsyncIterator[StoredMemory]:
        """Every memory of the owner, oldest first, streamed."""
