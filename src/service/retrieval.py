"""Reading by meaning: hybrid search and the selection of memories for prompt context."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from memlane.domain.context import by_type_priority, fit_to_budget, render_context
from memlane.domain.decay import importance_at
from memlane.domain.errors import EmbeddingUnavailable
from memlane.domain.model import (
    DenseHit,
    LexicalHit,
    MemoryContext,
    Owner,
    PromptContext,
    ScoredMemory,
    StoredMemory,
    Vector,
)
from memlane.domain.scoring import relevance
from memlane.service.fusion import fused_scores
from memlane.service.neighbours import Candidate, cosine_or_zero, expand_neighbours
from memlane.service.part import ServicePart

log = logging.getLogger(__name__)

MIN_CANDIDATES = 20
CANDIDATES_PER_RESULT = 4


@dataclass
class _Found:
    ranked: list[Candidate]
    vector: Vector | None


class Retriever(ServicePart):
    """Search and context selection; only context selection records access."""

    async def search(
        self, owner: Owner, query: str, *, limit: int, min_similarity: float | None, now: datetime
    ) -> list[ScoredMemory]:
        """Dense and lexical hits fused, best first, at most `limit`.

        `similarity` is the cosine to the query (0.0 when the memory or the query has no
        embedding); `min_similarity` applies to every result, lexical-only hits included.
        When the query cannot be embedded, lexical hits alone answer (similarity 0.0).
        """
        if limit < 1 or not query.strip():
            return []
        pool = max(MIN_CANDIDATES, CANDIDATES_PER_RESULT * limit)
        found = await self._candidates(owner, query, pool, min_similarity)
        return [self._scored(c, now) for c in found.ranked[:limit]]

    async def _candidates(
        self, owner: Owner, query: str, pool: int, min_similarity: float | None
    ) -> _Found:
        """Both rankings fused into one match score per memory, best first."""
        tuning = self._policy.recall
        terms = self._sealer.index_terms(owner.tenant, query)
        # The lexical search needs no vector: it runs in the database while the query is
        # embedded (off the event loop), and is awaited after the dense search.
        lexical_task = (
            asyncio.create_task(self._memories.search_lexical(owner, terms, pool))
            if terms else None
        )
        try:
            vector = await self._embed_query(query)
            dense: list[DenseHit] = []
            if vector is not None:
                floor = -1.0 if min_similarity is None else min_similarity
                dense = await self._memories.search_dense(
                    owner, vector, pool, min_similarity=floor
                )
            lexical = [] if lexical_task is None else await lexical_task
        finally:
            if lexical_task is not None:
                await _settle(lexical_task)
        by_id: dict[UUID, StoredMemory] = {h.stored.id: h.stored for h in lexical}
        worded = set(by_id)
        by_id.update({h.stored.id: h.stored for h in dense})
        similarities = {h.stored.id: h.similarity for h in dense}
        scores = fused_scores(
            dense, lexical, k=tuning.rrf_k,
            dense_weight=tuning.dense_weight, lexical_weight=tuning.lexical_weight,
        )
        ranked: list[Candidate] = []
        for memory_id, match in scores.items():
            stored = by_id[memory_id]
            similarity = similarities.get(memory_id)
            if similarity is None:
                similarity = cosine_or_zero(vector, stored.embedding)
                below = min_similarity is not None and similarity < min_similarity
                if vector is not None and below:
                    continue
            ranked.append(Candidate(stored, similarity, match, memory_id in worded))
        return _Found(ranked, vector)

    async def select(self, owner: Owner, query: str, limit: int | None) -> list[MemoryContext]:
        """The best memories for a prompt, in type-priority order, without recording access.

        Candidates are chosen by how well they match the query (fused dense + lexical rank);
        a dense hit must clear rag_threshold, a lexical hit stands on its shared rare words.
        The best few bring their conversation neighbours, scored below their seed. Among
        candidates of nearly equal match, the DESIGN relevance (importance, freshness)
        decides, so an old memory that matches well still beats a fresh one that does not.
        """
        wanted = limit or self._policy.rag_limit
        tuning = self._policy.recall
        now = self._clock()
        if not query.strip():
            return []
        pool = max(tuning.candidate_pool, CANDIDATES_PER_RESULT * wanted)
        found = await self._candidates(owner, query, pool, None)
        threshold = self._policy.rag_threshold
        eligible = [
            c for c in found.ranked
            if found.vector is None or c.lexical or c.similarity >= threshold
        ]
        eligible += await expand_neighbours(
            self._memories, owner, eligible, found.vector, tuning
        )
        if not eligible:
            return []
        best_match = max(c.match for c in eligible)
        weight = tuning.relevance_tiebreak
        # Ranked on stored fields alone: only the chosen few are decrypted.
        chosen = sorted(
            eligible, key=lambda c: -(c.match / best_match + weight * self._relevance(c, now))
        )[:wanted]
        return by_type_priority([_context(self._scored(c, now)) for c in chosen])

    def _relevance(self, candidate: Candidate, now: datetime) -> float:
        """DESIGN relevance from the stored (plaintext) heat; equals _scored's relevance."""
        stored = candidate.stored
        importance = importance_at(stored.heat, stored.memory_type, now, self._policy.base_rate)
        return relevance(
            candidate.similarity, importance, stored.heat.accessed_at, now, self._policy.weights
        )

    def _scored(self, candidate: Candidate, now: datetime) -> ScoredMemory:
        memory = self._sealer.open(candidate.stored, now)
        score = relevance(
            candidate.similarity, memory.importance, memory.accessed_at, now, self._policy.weights
        )
        return ScoredMemory(memory, candidate.similarity, score)

    async def retrieve_context(
        self, owner: Owner, query: str, limit: int | None
    ) -> list[MemoryContext]:
        chosen = await self.select(owner, query, limit)
        await self._record(owner, chosen)
        return chosen

    async def prompt_context(self, owner: Owner, query: str, limit: int | None) -> PromptContext:
        budget = self._policy.context_char_budget
        fitting = fit_to_budget(await self.select(owner, query, limit), budget)
        await self._record(owner, fitting)
        return PromptContext(memories=tuple(fitting), text=render_context(fitting, budget))

    async def _record(self, owner: Owner, chosen: Sequence[MemoryContext]) -> None:
        if chosen:
            await self._memories.record_access(
                owner, [m.id for m in chosen], self._clock(), self._policy.base_rate
            )

    async def _embed_query(self, query: str) -> Vector | None:
        try:
            return (await self._embedder.embed([query], kind="query"))[0]
        except EmbeddingUnavailable as error:
            log.warning("embedder unavailable, searching by keywords only: %s", error)
            return None


async def _settle(task: asyncio.Task[list[LexicalHit]]) -> None:
    """Cancel a search the caller no longer waits for, and mark a failed one as seen (when
    the embedding or the dense search failed first, that error is the one raised)."""
    if not task.done():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
    elif not task.cancelled():
        task.exception()


def _context(hit: ScoredMemory) -> MemoryContext:
    memory = hit.memory
    return MemoryContext(
        id=memory.id,
        content=memory.content,
        memory_type=memory.memory_type,
        relevance=hit.relevance,
        similarity=hit.similarity,
        importance=memory.importance,
        created_at=memory.created_at,
        tags=memory.tags,
        metadata=memory.metadata,
    )
