"""MemoryPort: where sealed memories live, scoped by tenant and user."""

from __future__ import annotations

import builtins
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from uuid import UUID

from memlane.domain.model import (
    Cursor,
    DenseHit,
    MemoryFilter,
    MemoryStats,
    Owner,
    Page,
    SearchCandidate,
    StoredMemory,
    Vector,
)


class MemoryWriteSession(ABC):
    """A per-user critical section: the dedup check and the writes are atomic together.

    The batch methods are the primitives (one statement each, whatever the batch size);
    the single-memory methods are conveniences over them.
    """

    @abstractmethod
    async def nearest_many(self, embeddings: Sequence[Vector]) -> builtins.list[DenseHit | None]:
        """For each embedding, the owner's single most similar memory (None if none has one)."""

    @abstractmethod
    async def insert_many(self, stored: Sequence[StoredMemory]) -> None:
        """Store new memories of this owner."""

    @abstractmethod
    async def replace_many(self, stored: Sequence[StoredMemory]) -> None:
        """Overwrite existing memories of this owner (all fields, heat included); raises
        MemoryNotFound, writing nothing, if any of them is gone."""

    async def nearest(self, embedding: Vector) -> DenseHit | None:
        return (await self.nearest_many([embedding]))[0]

    async def insert(self, stored: StoredMemory) -> None:
        await self.insert_many([stored])

    async def replace(self, stored: StoredMemory) -> None:
        await self.replace_many([stored])


class MemoryPort(ABC):
    """Persistence of sealed memories. Every method is scoped by the owner it is given;
    `owner=None` on maintenance methods means every tenant and user."""

    @abstractmethod
    def write_session(self, owner: Owner) -> AbstractAsyncContextManager[MemoryWriteSession]:
        """Serialise writes of one owner (an advisory lock in PostgreSQL)."""

    @abstractmethod
    async def get(self, owner: Owner, memory_id: UUID) -> StoredMemory | None: ...

    @abstractmethod
    async def get_many(self, owner: Owner, memory_ids: Sequence[UUID]) -> list[StoredMemory]:
        """The owner's memories among these ids, in no particular order."""

    @abstractmethod
    async def get_many_unindexed(
        self, owner: Owner, memory_ids: Sequence[UUID]
    ) -> list[StoredMemory]:
        """Like get_many, without what only indexing reads: no index terms (keywords is
        empty) and no embedding (embedding_model is kept). What opening a memory for a
        prompt needs; rebuilding a row's term list alone cost ~0.1 ms a memory."""

    @abstractmethod
    async def list(
        self, owner: Owner, filters: MemoryFilter, cursor: Cursor | None, limit: int
    ) -> Page[StoredMemory]:
        """Newest first, keyset-paginated on (created_at, id) so pages neither skip nor repeat."""

    # Reads for ranking: ids, scores and heat, never the sealed content or embeddings (decoding
    # 50 embeddings per search was most of its cost); `get_many` reads the few chosen in full.
    @abstractmethod
    async def dense_candidates(
        self, owner: Owner, embedding: Vector, limit: int, min_similarity: float = -1.0
    ) -> builtins.list[SearchCandidate]:
        """The owner's memories nearest to the embedding, best first (score = cosine): at most
        `limit`, none below `min_similarity`, memories without an embedding never found."""

    @abstractmethod
    async def lexical_candidates(
        self, owner: Owner, keywords: Sequence[str], limit: int
    ) -> builtins.list[SearchCandidate]:
        """The owner's memories sharing index terms with the query, best first (score = BM25).

        For a large owner an implementation may draw candidates from the rarest query terms
        only, then score them over every query term they hold."""

    @abstractmethod
    async def neighbour_candidates(
        self, owner: Owner, memory_ids: Sequence[UUID], span: int, embedding: Vector | None
    ) -> builtins.list[SearchCandidate]:
        """Memories next to the given ones in their conversation: up to `span` before and
        `span` after each, in (created_at, id) order within the same conversation_id, scored
        by cosine to `embedding` (0.0 without one, or for a memory without an embedding).

        The given memories themselves are not returned; memories without a conversation_id
        have no neighbours. Order of the result is unspecified, duplicates are removed.
        """

    @abstractmethod
    async def similarities(
        self, owner: Owner, memory_ids: Sequence[UUID], embedding: Vector
    ) -> dict[UUID, float]:
        """Cosine of each of the owner's memories among these ids to `embedding`; a memory
        without an embedding scores 0.0, ids of other owners or gone are left out."""

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

    @abstractmethod
    async def stats(self, owner: Owner | None, now: datetime, base_rate: float) -> MemoryStats:
        """Totals; avg_importance is computed at `now`, not read from the stale column."""

    @abstractmethod
    async def record_access(
        self, owner: Owner, memory_ids: Sequence[UUID], now: datetime, base_rate: float
    ) -> int:
        """Bank decay so far and restart the clock for these memories, in one statement."""

    @abstractmethod
    async def materialise_decay(
        self, owner: Owner | None, now: datetime, base_rate: float
    ) -> int:
        """Write importance(now) into the stored column; returns rows whose value changed."""

    @abstractmethod
    async def cleanup(
        self, owner: Owner | None, min_importance: float, now: datetime, base_rate: float
    ) -> int:
        """Delete unpinned memories whose importance at `now` is <= min_importance; returns
        how many. Judged from the heat, not the stored column; the survivors' stored
        importance is left as it is (materialise_decay writes it)."""

    @abstractmethod
    async def missing_embeddings(self, limit: int) -> builtins.list[StoredMemory]:
        """Memories stored while the embedder was down (any owner), oldest first."""

    @abstractmethod
    async def set_embeddings(
        self, items: Sequence[tuple[Owner, UUID, Vector]], model: str
    ) -> int:
        """Attach embeddings to existing memories in one statement."""
