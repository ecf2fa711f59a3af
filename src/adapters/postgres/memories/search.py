"""PostgresCandidateSearchAdapter: CandidateSearchPort on pgvector and the lexical postings."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

import asyncpg

from memlane.adapters.postgres.memories import candidates
from memlane.adapters.postgres.pool import connection_from
from memlane.adapters.postgres.vector_checks import check_query_dimension, dimension_errors
from memlane.domain.model import Owner, SearchCandidate, Vector
from memlane.ports.memories import CandidateSearchPort

# A lexical search reads at most this many postings of each query term, best first (sql.py
# SEARCH_LEXICAL_SCORED): exact BM25 for terms held by at most this many of the owner's
# memories, so for every term of an owner with at most this many memories.
LEXICAL_POSTINGS_PER_TERM = 1000


class PostgresCandidateSearchAdapter(CandidateSearchPort):
    """Owner-scoped candidate reads: ids, scores and heat, never sealed content."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        dimension: int | None = None,
        lexical_postings_per_term: int = LEXICAL_POSTINGS_PER_TERM,
    ) -> None:
        """`dimension`, when given, is checked on every query vector before the database sees
        it. `lexical_postings_per_term` bounds the postings a lexical search reads per query
        term (see LEXICAL_POSTINGS_PER_TERM); a larger one is closer to full BM25 for big
        owners."""
        self._pool = pool
        self._dimension = dimension
        self._postings_per_term = lexical_postings_per_term

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
                connection, owner, terms, limit, self._postings_per_term
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

    async def candidates_by_id(
        self, owner: Owner, memory_ids: Sequence[UUID], embedding: Vector | None
    ) -> list[SearchCandidate]:
        if not memory_ids:
            return []
        if embedding is not None:
            check_query_dimension(embedding, self._dimension)
        async with connection_from(self._pool) as connection, dimension_errors():
            return await candidates.by_id(connection, owner, memory_ids, embedding)
