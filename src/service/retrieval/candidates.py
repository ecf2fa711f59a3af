"""A retrieval's reads: candidates found and fused, the prompt compared, the chosen opened."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from memlane.domain.errors import EmbeddingUnavailable
from memlane.domain.model import Owner, ScoredMemory, SearchCandidate, StoredMemory, Vector
from memlane.domain.retrieval.context import ACTIVE_CONTEXT_SIMILARITY
from memlane.domain.retrieval.scoring import relevance
from memlane.service.part import ServicePart
from memlane.service.retrieval.conversation_prior import with_conversation_prior
from memlane.service.retrieval.entity_recall import EntityRecall
from memlane.service.retrieval.fact_recall import FactRecall
from memlane.service.retrieval.fusion import fused_scores
from memlane.service.retrieval.graph_expansion import Expansion
from memlane.service.retrieval.neighbours import Candidate

log = logging.getLogger(__name__)


@dataclass
class _Found:
    ranked: list[Candidate]
    vector: Vector | None
    named: frozenset[UUID] = frozenset()


class CandidateReads(ServicePart):
    """The reads under a retrieval: candidates found and fused, the prompt's texts compared,
    the chosen read in full; the hooks that let names and facts bring more candidates."""

    _fact_recall: FactRecall | None = None

    def join_facts_with(self, recall: FactRecall) -> None:
        """Let facts the query asks about bring their source memories (service/fact_recall)."""
        self._fact_recall = recall

    _entity_recall: EntityRecall | None = None

    def recall_entities_with(self, recall: EntityRecall) -> None:
        """Let the names in a question reach the memories that mention them."""
        self._entity_recall = recall

    async def _candidates(
        self, owner: Owner, query: str, pool: int, min_similarity: float | None
    ) -> _Found:
        """Both rankings fused into one match score per memory, best first (lean rows only)."""
        tuning = self._policy.recall
        terms = self._sealer.index_terms(owner.tenant, query)
        # The lexical search needs no vector: it runs in the database while the query is
        # embedded (off the event loop).
        lexical_task = (
            asyncio.create_task(self._search.lexical_candidates(owner, terms, pool))
            if terms else None
        )
        similarities: dict[UUID, float] = {}
        naming = self._entity_recall.start(owner, query) if self._entity_recall else None
        try:
            vector = await self._embed_query(query)
            dense: list[SearchCandidate] = []
            lexical: list[SearchCandidate] = []
            if vector is not None:
                floor = -1.0 if min_similarity is None else min_similarity
                dense_task = asyncio.create_task(self._search.dense_candidates(
                    owner, vector, pool, min_similarity=floor
                ))
                try:
                    if lexical_task is not None:
                        lexical = await lexical_task
                    # The cosines of the lexical hits are read while the dense search runs
                    # (on another connection), not in a round trip after it.
                    if lexical:
                        cosines = await self._search.similarities(
                            owner, [c.id for c in lexical], vector
                        )
                        # A hit deleted meanwhile has no cosine: 0, as for no embedding.
                        similarities = {c.id: cosines.get(c.id, 0.0) for c in lexical}
                    dense = await dense_task
                finally:
                    await settle(dense_task)
            elif lexical_task is not None:
                lexical = await lexical_task
            mentioning = await naming if naming is not None else []
        finally:
            if lexical_task is not None:
                await settle(lexical_task)
            if naming is not None:
                await settle(naming)
        hits: dict[UUID, SearchCandidate] = {c.id: c for c in lexical}
        worded = set(hits)
        hits.update({c.id: c for c in dense})
        similarities.update({c.id: c.score for c in dense})
        more: list[tuple[float, list[UUID]]] = []
        named: frozenset[UUID] = frozenset()
        if self._entity_recall is not None and mentioning:
            by_name = await self._entity_recall.ranked(
                owner, mentioning, hits, similarities, vector, pool
            )
            for c in by_name.ranking:
                similarities.setdefault(c.id, c.score if vector is not None else 0.0)
                hits.setdefault(c.id, c)
            # A memory that names what the question names is eligible like a word match.
            named = frozenset(by_name.ids)
            worded |= named
            more.append((self._entity_recall.weight, by_name.ids))
        scores = fused_scores(
            [c.id for c in dense], [c.id for c in lexical], k=tuning.rrf_k,
            dense_weight=tuning.dense_weight, lexical_weight=tuning.lexical_weight, more=more,
        )
        # Every candidate has its cosine here (lexical hits' read alongside the dense search).
        ranked = [
            Candidate(hits[i], similarities.get(i, 0.0), match, i in worded)
            for i, match in scores.items()
        ]
        if self._fact_recall is not None:
            ranked = await self._fact_recall.join(owner, query, ranked, vector, tuning)
        ranked = with_conversation_prior(
            ranked, tuning.conversation_weight, tuning.conversation_hits
        )
        return _Found(ranked, vector, named)

    async def _active_vectors(self, active: Sequence[str]) -> list[Vector]:
        """The texts already in the prompt, embedded in one call (none if the embedder is
        down: nothing is then left out for them)."""
        if not active:
            return []
        try:
            return await self._embedder.embed(list(active), kind="document")
        except EmbeddingUnavailable as error:
            log.warning("embedder unavailable, active context not compared: %s", error)
            return []

    async def _without_active(
        self, owner: Owner, candidates: list[Candidate], vectors: Sequence[Vector]
    ) -> list[Candidate]:
        """The candidates not already in the prompt: below ACTIVE_CONTEXT_SIMILARITY to every
        vector of the active context (one similarity read per text)."""
        if not vectors or not candidates:
            return candidates
        ids = [c.id for c in candidates]
        repeated: set[UUID] = set()
        for vector in vectors:
            cosines = await self._search.similarities(owner, ids, vector)
            repeated |= {i for i, c in cosines.items() if c >= ACTIVE_CONTEXT_SIMILARITY}
        return [c for c in candidates if c.id not in repeated]

    async def _open(
        self,
        owner: Owner,
        chosen: Sequence[Candidate],
        now: datetime,
        read: dict[UUID, StoredMemory] | None = None,
        *,
        unindexed: bool = False,
    ) -> list[ScoredMemory]:
        """The chosen candidates read in full (one statement, for those not `read` already)
        and decrypted, in their order; one deleted meanwhile is left out. `unindexed`: a
        prompt needs no terms or embedding, so they are not read."""
        if not chosen:
            return []
        rows = dict(read or {})
        missing = [c.id for c in chosen if c.id not in rows]
        if missing:
            found = await self._store.get_many(owner, missing, indexed=not unindexed)
            rows.update({r.id: r for r in found})
        scored: list[ScoredMemory] = []
        for candidate in chosen:
            stored = rows.get(candidate.id)
            if stored is None:
                continue
            memory = self._sealer.readable(stored, now)
            if memory is None:
                continue  # a damaged row never fails the whole search or context
            score = relevance(
                candidate.similarity, memory.importance, memory.accessed_at, now,
                self._policy.weights,
            )
            scored.append(ScoredMemory(memory, candidate.similarity, score))
        return scored

    async def _embed_query(self, query: str) -> Vector | None:
        try:
            return (await self._embedder.embed([query], kind="query"))[0]
        except EmbeddingUnavailable as error:
            log.warning("embedder unavailable, searching by keywords only: %s", error)
            return None


async def settle(
    task: asyncio.Task[list[SearchCandidate]] | asyncio.Task[list[UUID]] | asyncio.Task[Expansion],
) -> None:
    """Cancel a search the caller no longer waits for, and mark a failed one as seen (when
    the embedding or the dense search failed first, that error is the one raised)."""
    if not task.done():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
    elif not task.cancelled():
        task.exception()
