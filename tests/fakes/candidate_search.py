"""FakeCandidateSearch: an in-memory CandidateSearchPort (exact BM25, exact cosine)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from datetime import datetime
from statistics import fmean
from uuid import UUID

from memlane.domain.model import Owner, SearchCandidate, Vector
from memlane.domain.vectors import cosine_or_zero
from memlane.ports.memories.candidates import CandidateSearchPort
from tests.fakes.memory_table import FakeMemoryTable, position


class FakeCandidateSearch(CandidateSearchPort):
    """Candidate reads over the shared FakeMemoryTable."""

    def __init__(self, table: FakeMemoryTable) -> None:
        self._table = table

    async def dense_candidates(
        self, owner: Owner, embedding: Vector, limit: int, min_similarity: float = -1.0,
        written: tuple[datetime, datetime] | None = None,
    ) -> list[SearchCandidate]:
        scored = [
            (score, r) for score, r in self._table._dense(owner, embedding)
            if written is None or written[0] <= r.created_at <= written[1]
        ][:limit]
        return [SearchCandidate.of(r, score) for score, r in scored if score >= min_similarity]

    async def lexical_candidates(
        self, owner: Owner, keywords: Sequence[str], limit: int
    ) -> list[SearchCandidate]:
        """BM25 (k1 1.2, b 0.75) over the owner's memories, as the adapter computes it for an
        owner within its postings budget: length is the count of distinct terms."""
        rows = self._table._all(owner)
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
            self._table._check_vector(embedding)
        rows = self._table._rows.get(owner, {})
        seeds = [rows[i] for i in dict.fromkeys(memory_ids) if i in rows]
        found: dict[UUID, SearchCandidate] = {}
        for seed in seeds:
            if seed.conversation_id is None:
                continue
            chain = sorted(
                (r for r in rows.values() if r.conversation_id == seed.conversation_id),
                key=position,
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
        self._table._check_vector(embedding)
        rows = self._table._rows.get(owner, {})
        return {i: cosine_or_zero(embedding, rows[i].embedding) for i in memory_ids if i in rows}

    async def similarities_to(
        self, owner: Owner, memory_ids: Sequence[UUID], embeddings: Sequence[Vector]
    ) -> dict[UUID, tuple[float, ...]]:
        if not memory_ids or not embeddings:
            return {}
        for embedding in embeddings:
            self._table._check_vector(embedding)
        rows = self._table._rows.get(owner, {})
        return {
            i: tuple(cosine_or_zero(e, rows[i].embedding) for e in embeddings)
            for i in memory_ids if i in rows
        }

    async def candidates_by_id(
        self, owner: Owner, memory_ids: Sequence[UUID], embedding: Vector | None
    ) -> list[SearchCandidate]:
        if embedding is not None:
            self._table._check_vector(embedding)
        rows = self._table._rows.get(owner, {})
        return [
            SearchCandidate.of(rows[i], cosine_or_zero(embedding, rows[i].embedding))
            for i in dict.fromkeys(memory_ids) if i in rows
        ]
