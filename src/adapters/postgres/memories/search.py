"""PostgresCandidateSearchAdapter: CandidateSearchPort on pgvector and the lexical postings."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

import asyncpg

from memlane.adapters.postgres.memories import candidates
from memlane.adapters.postgres.memories.lexical_reading import DEFAULT_READING, LexicalReading
from memlane.adapters.postgres.pool import connection_from
from memlane.adapters.postgres.vector_checks import check_query_dimension, dimension_errors
from memlane.domain.model import Owner, SearchCandidate, Vector
from memlane.ports.memories import CandidateSearchPort


class PostgresCandidateSearchAdapter(CandidateSearchPort):
    """Owner-scoped candidate reads: ids, scores and heat, never sealed content."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        dimension: int | None = None,
        lexical_reading: LexicalReading = DEFAULT_READING,
    ) -> None:
        """`dimension`, when given, is checked on every query vector before the database sees
        it. `lexical_reading` is the lexical search's budget (see LexicalReading)."""
        self._pool = pool
        self._dimension = dimension
        self._lexical_reading = lexical_reading

    async def dense_candidates(
        self, owner: Owner, embedding: Vector, limit: int, min_similarity: float = -1.0,
        written: tuple[datetime, datetime] | None = None,
    ) -> list[SearchCandidate]:
        check_query_dimension(embedding, self._dimension)
        async with connection_from(self._pool) as connection, dimension_errors():
            return await candidates.dense(
                connection, owner, embedding, limit, min_similarity, written
            )

    async def lexical_candidates(
        self, owner: Owner, keywords: Sequence[str], limit: int
    ) -> list[SearchCandidate]:
        terms = [k for k in keywords if k]
        if not terms:
            return []
        async with connection_from(self._pool) as connection:
            return await candidates.lexical(
                connection, owner, terms, limit, self._lexical_reading
            )

    async def neighbour_candidates(
        self, owner: Owner, memory_ids: Sequence[UUID], span: int, embedding: Vector | None
    ) -> list[SearchCandidate]:
        if not memory_ids or span < 1:
            return []
        if embedding is not None:
            check_query_dimension(embedding, self._dimension)
        async with connection_from(self._pool) as connection, dimension_errors():
            return await candidates.neighbours(connection, owner, memory_ids, span, embedding)

    async def similarities(
        self, owner: Owner, memory_ids: Sequence[UUID], embedding: Vector
    ) -> dict[UUID, float]:
        if not memory_ids:
            return {}
        check_query_dimension(embedding, self._dimension)
        async with connection_from(self._pool) as connection, dimension_errors():
            return await candidates.similarities(connection, owner, memory_ids, embedding)

    async def similarities_to(
        self, owner: Owner, memory_ids: Sequence[UUID], embeddings: Sequence[Vector]
    ) -> dict[UUID, tuple[float, ...]]:
        if not memory_ids or not embeddings:
            return {}
        for embedding in embeddings:
            check_query_dimension(embedding, self._dimension)
        async with connection_from(self._pool) as connection, dimension_errors():
            return await candidates.similarities_to(connection, owner, memory_ids, embeddings)

    async def candidates_by_id(
        self, owner: Owner, memory_ids: Sequence[UUID], embedding: Vector | None
    ) -> list[SearchCandidate]:
        if not memory_ids:
            return []
        if embedding is not None:
            check_query_dimension(embedding, self._dimension)
        async with connection_from(self._pool) as connection, dimension_errors():
            return await candidates.by_id(connection, owner, memory_ids, embedding)
