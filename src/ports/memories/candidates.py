"""Candidate search: the lean reads that rank memories for a query (ids, scores, heat)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

from memlane.domain.model import Owner, SearchCandidate, Vector


class CandidateSearchPort(ABC):
    """Reads for ranking: never the sealed content or embeddings (decoding 50 embeddings per
    search was most of its cost); the store reads the few chosen in full."""

    @abstractmethod
    async def dense_candidates(
        self, owner: Owner, embedding: Vector, limit: int, min_similarity: float = -1.0,
        written: tuple[datetime, datetime] | None = None,
    ) -> list[SearchCandidate]:
        """The owner's memories nearest to the embedding, best first (score = cosine): at most
        `limit`, none below `min_similarity`, memories without an embedding never found.
        `written`: only memories created within it (both ends included)."""

    @abstractmethod
    async def lexical_candidates(
        self, owner: Owner, keywords: Sequence[str], limit: int
    ) -> list[SearchCandidate]:
        """The owner's memories sharing index terms with the query, best first (score = BM25).

        For a large owner an implementation may draw candidates from the rarest query terms
        only, then score them over every query term they hold."""

    @abstractmethod
    async def neighbour_candidates(
        self, owner: Owner, memory_ids: Sequence[UUID], span: int, embedding: Vector | None
    ) -> list[SearchCandidate]:
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
    async def similarities_to(
        self, owner: Owner, memory_ids: Sequence[UUID], embeddings: Sequence[Vector]
    ) -> dict[UUID, tuple[float, ...]]:
        """`similarities` to several vectors in one read: each memory's cosines to
        `embeddings`, in their order, each equal to what `similarities` gives for it."""

    @abstractmethod
    async def candidates_by_id(
        self, owner: Owner, memory_ids: Sequence[UUID], embedding: Vector | None
    ) -> list[SearchCandidate]:
        """The owner's memories among these ids as candidates scored by cosine to `embedding`
        (0.0 without one, or for a memory without an embedding); others are left out."""
