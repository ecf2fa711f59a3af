"""FakeMemoryPort: an in-memory MemoryPort with the same semantics as the PostgreSQL adapter."""

from __future__ import annotations

import asyncio
import copy
import math
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import replace
from datetime import datetime
from statistics import fmean
from uuid import UUID

from memlane.domain.decay import accessed, importance_at
from memlane.domain.errors import MemoryNotFound
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
from memlane.domain.vectors import cosine, cosine_or_zero
from memlane.ports.memory import MemoryPort, MemoryWriteSession


def _position(row: StoredMemory) -> tuple[datetime, UUID]:
    return (row.created_at, row.id)


class _FakeWriteSession(MemoryWriteSession):
    def __init__(self, port: FakeMemoryPort, owner: Owner) -> None:
        self._port = port
        self._owner = owner

    async def nearest_many(self, embeddings: Sequence[Vector]) -> list[DenseHit | None]:
        found = [self._port._nearest(self._owner, embedding) for embedding in embeddings]
        await asyncio.sleep(0)  # a real query yields before it answers: racing writers run here
        return found

    async def insert_many(self, stored: Sequence[StoredMemory]) -> None:
        rows = self._port._rows[self._owner]
        ids = [s.id for s in stored]
        for row in stored:
            self._port._check(row, self._owner)
        if len(set(ids)) != len(ids) or any(i in rows for i in ids):
            raise ValueError("duplicate memory id")  # a primary-key violation: nothing written
        for row in stored:
            rows[row.id] = self._port._copy(row)

    async def replace_many(self, stored: Sequence[StoredMemory]) -> None:
        rows = self._port._rows[self._owner]
        for row in stored:
            self._port._check(row, self._owner)
        missing = next((row.id for row in stored if row.id not in rows), None)
        if missing is not None:
            raise MemoryNotFound(missing)
        for row in stored:
            await self._port.update(row)


class FakeMemoryPort(MemoryPort):
    """Rows live in a dict per owner; writes of one owner are serialised by an asyncio.Lock."""

    def __init__(self, dimension: int | None = None) -> None:
        self.dimension = dimension
        self._rows: defaultdict[Owner, dict[UUID, StoredMemory]] = defaultdict(dict)
        self._locks: defaultdict[Owner, asyncio.Lock] = defaultdict(asyncio.Lock)

    # -- helpers -------------------------------------------------------------------------
    def _check(self, stored: StoredMemory, owner: Owner | None = None) -> None:
        if owner is not None and stored.owner != owner:
            raise ValueError("a write session only writes its own owner's memories")
        if not isinstance(stored.content, bytes) or not isinstance(stored.summary, bytes):
            raise TypeError("content and summary must be sealed bytes")
        if stored.embedding is not None:
            self._check_vector(stored.embedding)

    def _check_vector(self, vector: Vector) -> None:
        if self.dimension is not None and len(vector) != self.dimension:
            raise ValueError(f"expected {self.dimension} dimensions, got {len(vector)}")

    @staticmethod
    def _copy(stored: StoredMemory) -> StoredMemory:
        """Detach from the caller's objects, as a database would."""
        return replace(
            stored,
            tags=tuple(stored.tags),
            metadata=copy.deepcopy(dict(stored.metadata)),
            embedding=None if stored.embedding is None else tuple(stored.embedding),
            keywords=tuple(stored.keywords),
        )

    def _scope(self, owner: Owner | None) -> Iterable[dict[UUID, StoredMemory]]:
        if owner is None:
            return list(self._rows.values())
        return [self._rows.get(owner, {})]

    def _all(self, owner: Owner | None) -> list[StoredMemory]:
        return [row for rows in self._scope(owner) for row in rows.values()]

    def _dense(self, owner: Owner, embedding: Vector) -> list[tuple[float, StoredMemory]]:
        """The owner's memories with an embedding, best cosine first (ties by id)."""
        self._check_vector(embedding)
        scored = [(cosine(r.embedding, embedding), r) for r in self._all(owner)
                  if r.embedding is not None]
        return sorted(scored, key=lambda pair: (-pair[0], pair[1].id))

    def _nearest(self, owner: Owner, embedding: Vector) -> DenseHit | None:
        scored = self._dense(owner, embedding)
        return DenseHit(self._copy(scored[0][1]), scored[0][0]) if scored else None

    # -- MemoryPort ----------------------------------------------------------------------
    @asynccontextmanager
    async def _session(self, owner: Owner) -> AsyncIterator[MemoryWriteSession]:
        async with self._locks[owner]:
            yield _FakeWriteSession(self, owner)

    def write_session(self, owner: Owner) -> AbstractAsyncContextManager[MemoryWriteSession]:
        return self._session(owner)

    async def get(self, owner: Owner, memory_id: UUID) -> StoredMemory | None:
        row = self._rows.get(owner, {}).get(memory_id)
        return None if row is None else self._copy(row)

    async def get_many(self, owner: Owner, memory_ids: Sequence[UUID]) -> list[StoredMemory]:
        rows = self._rows.get(owner, {})
        return [self._copy(rows[i]) for i in dict.fromkeys(memory_ids) if i in rows]

    async def get_many_unindexed(
        self, owner: Owner, memory_ids: Sequence[UUID]
    ) -> list[StoredMemory]:
        rows = await self.get_many(owner, memory_ids)
        return [replace(r, keywords=(), embedding=None) for r in rows]

    async def dense_candidates(
        self, owner: Owner, embedding: Vector, limit: int, min_similarity: float = -1.0
    ) -> list[SearchCandidate]:
        scored = self._dense(owner, embedding)[:limit]
        return [SearchCandidate.of(r, score) for score, r in scored if score >= min_similarity]

    async def lexical_candidates(
        self, owner: Owner, keywords: Sequence[str], limit: int
    ) -> list[SearchCandidate]:
        """BM25 (k1 1.2, b 0.75) over the owner's memories, as the adapter computes it for an
        owner within its postings budget: length is the count of distinct terms."""
        rows = self._all(owner)
        wanted = set(keywords) - {""}
        counts = {row.id: Counter(row.keywords) for row in rows}
        df = Counter(term for row in rows for term in set(row.keywords) if term in wanted)
        avgdl = max(1.0, fmean(len(c) for c in counts.values())) if rows else 1.0
        found: list[SearchCandidate] = []
        for row in rows:
            tf = counts[row.id]
            score = sum(
                math.log(1 + (len(rows) - df[t] + 0.5) / (df[t] + 0.5))
                * tf[t] * 2.2 / (tf[t] + 1.2 * (0.25 + 0.75 * len(tf) / avgdl))
                for t in wanted if tf[t]
            )
            if score > 0:
                found.append(SearchCandidate.of(row, score))
        found.sort(key=lambda c: (-c.score, c.id))
        return found[:limit]

    async def neighbour_candidates(
        self, owner: Owner, memory_ids: Sequence[UUID], span: int, embedding: Vector | None
    ) -> list[SearchCandidate]:
        if not memory_ids or span < 1:
            return []
        if embedding is not None:
            self._check_vector(embedding)
        rows = self._rows.get(owner, {})
        seeds = [rows[i] for i in dict.fromkeys(memory_ids) if i in rows]
        found: dict[UUID, SearchCandidate] = {}
        for seed in seeds:
            if seed.conversation_id is None:
                continue
            chain = sorted(
                (r for r in rows.values() if r.conversation_id == seed.conversation_id),
                key=_position,
            )
            at = chain.index(seed)
            for row in chain[max(0, at - span) : at + span + 1]:
                if row.id not in memory_ids:
                    score = cosine_or_zero(embedding, row.embedding)
                    found[row.id] = SearchCandidate.of(row, score)
        return list(found.values())

    async def similarities(
        self, owner: Owner, memory_ids: Sequence[UUID], embedding: Vector
    ) -> dict[UUID, float]:
        if not memory_ids:
            return {}
        self._check_vector(embedding)
        rows = self._rows.get(owner, {})
        return {i: cosine_or_zero(embedding, rows[i].embedding) for i in memory_ids if i in rows}

    async def update(self, stored: StoredMemory) -> bool:
        self._check(stored)
        rows = self._rows.get(stored.owner, {})
        if stored.id not in rows:
            return False
        rows[stored.id] = self._copy(stored)
        return True

    async def delete(self, owner: Owner, memory_id: UUID) -> bool:
        return self._rows.get(owner, {}).pop(memory_id, None) is not None

    async def delete_all(self, owner: Owner) -> int:
        rows = self._rows.pop(owner, {})
        return len(rows)

    async def export(self, owner: Owner) -> AsyncIterator[StoredMemory]:
        for row in sorted(self._all(owner), key=_position):
            yield self._copy(row)

    async def stats(self, owner: Owner | None, now: datetime, base_rate: float) -> MemoryStats:
        rows = self._all(owner)
        return MemoryStats(
            total=len(rows),
            by_type=dict(Counter(r.memory_type.value for r in rows)),
            with_embeddings=sum(r.embedding is not None for r in rows),
            avg_importance=fmean(importance_at(r.heat, r.memory_type, now, base_rate) for r in rows)
            if rows
            else 0.0,
        )

    async def record_access(
        self, owner: Owner, memory_ids: Sequence[UUID], now: datetime, base_rate: float
    ) -> int:
        rows = self._rows.get(owner, {})
        count = 0
        for memory_id in dict.fromkeys(memory_ids):
            row = rows.get(memory_id)
            if row is None:
                continue
            heat = accessed(row.heat, row.memory_type, now, base_rate)
            rows[memory_id] = replace(
                row, heat=heat, importance=importance_at(heat, row.memory_type, now, base_rate)
            )
            count += 1
        return count

    async def materialise_decay(
        self, owner: Owner | None, now: datetime, base_rate: float
    ) -> int:
        changed = 0
        for rows in self._scope(owner):
            for memory_id, row in list(rows.items()):
                value = importance_at(row.heat, row.memory_type, now, base_rate)
                if value != row.importance:
                    rows[memory_id] = replace(row, importance=value)
                    changed += 1
        return changed

    async def cleanup(
        self, owner: Owner | None, min_importance: float, now: datetime, base_rate: float
    ) -> int:
        deleted = 0
        for rows in self._scope(owner):
            doomed = [
                i for i, r in rows.items()
                if not r.pinned
                and importance_at(r.heat, r.memory_type, now, base_rate) <= min_importance
            ]
            for memory_id in doomed:
                del rows[memory_id]
            deleted += len(doomed)
        return deleted

    async def missing_embeddings(self, limit: int) -> list[StoredMemory]:
        rows = sorted((r for r in self._all(None) if r.embedding is None), key=_position)
        return [self._copy(r) for r in rows[:limit]]

    async def set_embeddings(self, items: Sequence[tuple[Owner, UUID, Vector]], model: str) -> int:
        count = 0
        for owner, memory_id, vector in items:
            self._check_vector(vector)
            rows = self._rows.get(owner, {})
            if memory_id in rows:
                rows[memory_id] = replace(
                    rows[memory_id], embedding=tuple(vector), embedding_model=model
                )
                count += 1
        return count

    # Last, because inside the class body its name shadows the builtin in annotations.
    async def list(
        self, owner: Owner, filters: MemoryFilter, cursor: Cursor | None, limit: int
    ) -> Page[StoredMemory]:
        rows = sorted(self._all(owner), key=_position, reverse=True)
        if cursor is not None:
            rows = [r for r in rows if _position(r) < (cursor.created_at, cursor.id)]
        rows = [r for r in rows if _matches(r, filters)][: limit + 1]
        more = len(rows) > limit
        items = [self._copy(r) for r in rows[:limit]]
        last = items[-1] if more and items else None
        return Page(items, None if last is None else Cursor(last.created_at, last.id))


def _matches(row: StoredMemory, filters: MemoryFilter) -> bool:
    return (
        (filters.memory_type is None or row.memory_type == filters.memory_type)
        and (filters.tag is None or filters.tag in row.tags)
        and (filters.conversation_id is None or row.conversation_id == filters.conversation_id)
        and (filters.min_importance is None or row.importance >= filters.min_importance)
    )
