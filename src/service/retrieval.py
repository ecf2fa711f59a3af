"""Reading by meaning: hybrid search and the selection of memories for prompt context."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

from memlane.domain.context import by_type_priority, fit_to_budget, render_context
from memlane.domain.errors import EmbeddingUnavailable
from memlane.domain.model import (
    DenseHit,
    MemoryContext,
    Owner,
    PromptContext,
    ScoredMemory,
    StoredMemory,
    Vector,
)
from memlane.domain.policy import MemoryPolicy
from memlane.domain.scoring import relevance
from memlane.ports.clock import Clock
from memlane.ports.embedding import EmbeddingPort
from memlane.ports.memory import MemoryPort
from memlane.service.fusion import fuse
from memlane.service.sealing import Sealer
from memlane.service.vectors import cosine

log = logging.getLogger(__name__)

MIN_CANDIDATES = 20
CANDIDATES_PER_RESULT = 4


class Retriever:
    """Search and context selection; only context selection records access."""

    def __init__(
        self,
        memories: MemoryPort,
        embedder: EmbeddingPort,
        sealer: Sealer,
        policy: MemoryPolicy,
        clock: Clock,
    ) -> None:
        self._memories = memories
        self._embedder = embedder
        self._sealer = sealer
        self._policy = policy
        self._clock = clock

    async def search(
        self, owner: Owner, query: str, *, limit: int, min_similarity: float | None, now: datetime
    ) -> list[ScoredMemory]:
        return (await self._search(owner, query, limit, min_similarity, now))[0]

    async def _search(
        self, owner: Owner, query: str, limit: int, min_similarity: float | None, now: datetime
    ) -> tuple[list[ScoredMemory], bool]:
        """Dense and lexical hits fused, best first, at most `limit`.

        `similarity` is the cosine to the query (0.0 when the memory or the query has no
        embedding); `min_similarity` applies to every result, lexical-only hits included.
        When the query cannot be embedded, lexical hits alone answer (similarity 0.0);
        the flag returned says whether the query was embedded.
        """
        if limit < 1 or not query.strip():
            return [], False
        pool = max(MIN_CANDIDATES, CANDIDATES_PER_RESULT * limit)
        vector = await self._embed_query(query)
        dense: list[DenseHit] = []
        if vector is not None:
            floor = -1.0 if min_similarity is None else min_similarity
            dense = await self._memories.search_dense(owner, vector, pool, min_similarity=floor)
        terms = self._sealer.index_terms(owner.tenant, query)
        lexical = await self._memories.search_lexical(owner, terms, pool) if terms else []
        by_id: dict[UUID, StoredMemory] = {h.stored.id: h.stored for h in lexical}
        by_id.update({h.stored.id: h.stored for h in dense})
        similarities = {h.stored.id: h.similarity for h in dense}
        results: list[ScoredMemory] = []
        for memory_id in fuse(dense, lexical):
            stored = by_id[memory_id]
            similarity = similarities.get(memory_id)
            if similarity is None:
                similarity = _cosine_or_zero(vector, stored.embedding)
                below = min_similarity is not None and similarity < min_similarity
                if vector is not None and below:
                    continue
            memory = self._sealer.open(stored, now)
            score = relevance(similarity, memory.importance, memory.accessed_at, now,
                              self._policy.weights)
            results.append(ScoredMemory(memory, similarity, score))
            if len(results) == limit:
                break
        return results, vector is not None

    async def select(self, owner: Owner, query: str, limit: int | None) -> list[MemoryContext]:
        """The best memories for a prompt, in type-priority order, without recording access.

        Candidates are all fused hits whose cosine is at least rag_threshold (lexical hits
        widen recall past the dense candidate pool but must clear the same threshold); only
        when the query cannot be embedded do lexical matches stand in on their own.
        """
        wanted = limit or self._policy.rag_limit
        now = self._clock()
        pool = max(MIN_CANDIDATES, CANDIDATES_PER_RESULT * wanted)
        hits, embedded = await self._search(owner, query, pool, None, now)
        if embedded:
            hits = [h for h in hits if h.similarity >= self._policy.rag_threshold]
        best = sorted(hits, key=lambda h: -h.relevance)[:wanted]
        return by_type_priority([_context(h) for h in best])

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


def _cosine_or_zero(query: Vector | None, embedding: Vector | None) -> float:
    if query is None or embedding is None:
        return 0.0
    return cosine(query, embedding)


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
