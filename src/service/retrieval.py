"""Reading by meaning: hybrid search and the selection of memories for prompt context."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from uuid import UUID

from memlane.domain.context import (
    ACTIVE_CONTEXT_SIMILARITY,
    ContextOptions,
    fit_to_budget,
    in_order,
    render_context,
)
from memlane.domain.decay import importance_at
from memlane.domain.errors import EmbeddingUnavailable
from memlane.domain.model import (
    MemoryContext,
    Owner,
    PromptContext,
    ScoredMemory,
    SearchCandidate,
    StoredMemory,
    Vector,
)
from memlane.domain.scoring import relevance
from memlane.domain.supersession import asks_about_past
from memlane.service.conversation_prior import with_conversation_prior
from memlane.service.entity_recall import EntityRecall
from memlane.service.fact_recall import FactRecall
from memlane.service.fusion import fused_scores
from memlane.service.graph_expansion import Expansion, GraphExpansion
from memlane.service.neighbours import Candidate, expand_neighbours
from memlane.service.part import ServicePart

log = logging.getLogger(__name__)

MIN_CANDIDATES = 20
CANDIDATES_PER_RESULT = 4


@dataclass
class _Found:
    ranked: list[Candidate]
    vector: Vector | None
    named: frozenset[UUID] = frozenset()


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
        ranked = found.ranked
        if found.vector is not None and min_similarity is not None:
            ranked = [c for c in ranked if c.similarity >= min_similarity]
        return await self._open(owner, ranked[:limit], now)

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
                    await _settle(dense_task)
            elif lexical_task is not None:
                lexical = await lexical_task
            mentioning = await naming if naming is not None else []
        finally:
            if lexical_task is not None:
                await _settle(lexical_task)
            if naming is not None:
                await _settle(naming)
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

    _fact_recall: FactRecall | None = None

    def join_facts_with(self, recall: FactRecall) -> None:
        """Let facts the query asks about bring their source memories (service/fact_recall)."""
        self._fact_recall = recall

    _expansion: GraphExpansion | None = None
    _entity_recall: EntityRecall | None = None

    def recall_entities_with(self, recall: EntityRecall) -> None:
        """Let the names in a question reach the memories that mention them."""
        self._entity_recall = recall

    def expand_with(self, expansion: GraphExpansion) -> None:
        """Bring what the graph links the entries to into every context."""
        self._expansion = expansion

    async def select(
        self, owner: Owner, query: str, limit: int | None, options: ContextOptions | None = None
    ) -> list[MemoryContext]:
        return (await self._select(owner, query, limit, options or ContextOptions()))[0]

    def _excluded_conversation(
        self, owner: Owner, options: ContextOptions
    ) -> Callable[[str | None], bool]:
        """Whether a candidate's stored conversation is the current one: the id's blind
        token, or the plaintext id of a row stored before sealing (seal-existing not run)."""
        token = self._sealer.attributes.conversation_token(owner.tenant, options.conversation_id)
        stored = replace(options, conversation_id=token)
        return lambda c: options.excludes_conversation(c) or stored.excludes_conversation(c)

    async def _select(
        self, owner: Owner, query: str, limit: int | None, options: ContextOptions
    ) -> tuple[list[MemoryContext], Expansion]:
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
            return [], Expansion()
        pool = max(tuning.candidate_pool, CANDIDATES_PER_RESULT * wanted)
        found = await self._candidates(owner, query, pool, None)
        excluded = self._excluded_conversation(owner, options)
        threshold = self._policy.rag_threshold
        # Lexical hits are eligible whatever their cosine.
        eligible = [
            c for c in found.ranked
            if (found.vector is None or c.lexical or c.similarity >= threshold)
            and not excluded(c.hit.conversation_id)
        ]
        if not eligible:
            return [], Expansion()
        # The graph's read (replacements, spreading activation) runs beside the other
        # context reads below, not before them; what it finds is applied when they are done.
        # What a memory the graph reaches would need to make the context: the ranking below
        # (match / best + tiebreak x relevance, relevance at most the sum of its weights);
        # unknown when the active context may still drop entries.
        weights = self._policy.weights
        expanding = asyncio.create_task(self._expansion.expand(
            owner, eligible, found.vector, now,
            places=None if options.active_context else wanted,
            slack=tuning.relevance_tiebreak
            * (weights.similarity + weights.importance + weights.freshness),
            threshold=threshold,
        )) if self._expansion is not None else None
        try:
            active = await self._active_vectors(options.active_context)
            eligible = await self._without_active(owner, eligible, active)
        except BaseException:
            if expanding is not None:
                await _settle(expanding)
            raise
        if not eligible:
            if expanding is not None:
                await _settle(expanding)
            return [], Expansion()
        best_match = max(c.match for c in eligible)
        weight = tuning.relevance_tiebreak

        relevances: dict[UUID, float] = {}

        def ranked(candidates: list[Candidate]) -> list[Candidate]:
            # Ranked on lean rows (stored heat) alone: only the chosen few are read in full.
            # A candidate's relevance does not change between the two rankings (its match
            # may: a neighbour can raise it), so it is computed once.
            for c in candidates:
                if c.id not in relevances:
                    relevances[c.id] = self._relevance(c, now)
            return sorted(
                candidates, key=lambda c: -(c.match / best_match + weight * relevances[c.id])
            )[:wanted]

        # Neighbours score below their seed and only raise matches, so the best match stays
        # an eligible one; the likely winners are read in full while the neighbours are.
        likely = ranked(eligible)
        try:
            added, prefetched = await asyncio.gather(
                expand_neighbours(self._search, owner, eligible, found.vector, tuning),
                self._store.get_many(owner, [c.id for c in likely], indexed=False),
            )
            graph = await expanding if expanding is not None else Expansion()
        finally:
            if expanding is not None:
                await _settle(expanding)
        if not (options.include_superseded or asks_about_past(query)):
            eligible = [c for c in eligible if c.id not in graph.superseded_by]
            added = [c for c in added if c.id not in graph.superseded_by]
            graph.added = [c for c in graph.added if c.id not in graph.superseded_by]
        # A memory both a chain and the graph bring counts once, at the better match.
        joined: dict[UUID, Candidate] = {}
        for c in added + graph.added:
            if c.id not in joined or c.match > joined[c.id].match:
                joined[c.id] = c
        added = await self._without_active(
            owner,
            [c for c in joined.values() if not excluded(c.hit.conversation_id)],
            active,
        )
        if not eligible and not added:
            return [], graph
        best_match = max(c.match for c in eligible + added)
        chosen = ranked(eligible + added)
        opened = await self._open(
            owner, chosen, now, {r.id: r for r in prefetched}, unindexed=True
        )
        # A memory the embedding alone would not have brought, reached by a name: "entity".
        roles = {
            **{c.id: "entity" for c in eligible
               if c.id in found.named and c.similarity < threshold},
            **{c.id: "chain" for c in added}, **graph.roles,
        }
        contexts = [
            _context(hit, roles.get(hit.memory.id, "entry"), graph.superseded_by)
            for hit in opened
        ]
        return in_order(contexts, options.order), graph

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

    def _relevance(self, candidate: Candidate, now: datetime) -> float:
        """DESIGN relevance from the stored (plaintext) heat, importance computed at `now`."""
        hit = candidate.hit
        importance = importance_at(hit.heat, hit.memory_type, now, self._policy.base_rate)
        return relevance(
            candidate.similarity, importance, hit.heat.accessed_at, now, self._policy.weights
        )

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

    async def retrieve_context(
        self, owner: Owner, query: str, limit: int | None, options: ContextOptions | None = None
    ) -> list[MemoryContext]:
        chosen, graph = await self._select(owner, query, limit, options or ContextOptions())
        await self._record(owner, chosen, graph)
        return chosen

    async def prompt_context(
        self, owner: Owner, query: str, limit: int | None, options: ContextOptions | None = None,
        char_budget: int | None = None,
    ) -> PromptContext:
        """`char_budget`: what the memories may use (the policy's context_char_budget)."""
        options = options or ContextOptions()
        budget = self._policy.context_char_budget if char_budget is None else char_budget
        chosen, graph = await self._select(owner, query, limit, options)
        fitting = in_order(fit_to_budget(chosen, budget, options.order), options.order)
        await self._record(owner, fitting, graph)
        text = render_context(fitting, budget, options.order)
        return PromptContext(memories=tuple(fitting), text=text)

    async def _record(
        self, owner: Owner, chosen: Sequence[MemoryContext], graph: Expansion
    ) -> None:
        """Use activates what it touches: the memories (decay clock) and the edges that
        brought them (strength)."""
        if not chosen:
            return
        now = self._clock()
        ids = [m.id for m in chosen]
        await self._maintenance.record_access(owner, ids, now, self._policy.base_rate)
        if self._expansion is not None:
            await self._expansion.reinforce(owner, graph, ids, now)

    async def _embed_query(self, query: str) -> Vector | None:
        try:
            return (await self._embedder.embed([query], kind="query"))[0]
        except EmbeddingUnavailable as error:
            log.warning("embedder unavailable, searching by keywords only: %s", error)
            return None


async def _settle(
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


def _context(hit: ScoredMemory, role: str, superseded_by: dict[UUID, UUID]) -> MemoryContext:
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
        role=role,
        conversation_id=memory.conversation_id,
        superseded_by=superseded_by.get(memory.id),
    )
