"""Reading by meaning: hybrid search and the selection of memories for prompt context."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from uuid import UUID

from memlane.domain.graph.supersession import asks_about_past
from memlane.domain.memories.decay import importance_at
from memlane.domain.model import MemoryContext, Owner, PromptContext, ScoredMemory
from memlane.domain.retrieval.context import ContextOptions, fit_to_budget, in_order, render_context
from memlane.domain.retrieval.scoring import relevance
from memlane.service.retrieval.candidates import CandidateReads, settle
from memlane.service.retrieval.graph_expansion import Expansion, GraphExpansion
from memlane.service.retrieval.neighbours import Candidate, expand_neighbours

MIN_CANDIDATES = 20
CANDIDATES_PER_RESULT = 4


class Retriever(CandidateReads):
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

    _expansion: GraphExpansion | None = None

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
                await settle(expanding)
            raise
        if not eligible:
            if expanding is not None:
                await settle(expanding)
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
                await settle(expanding)
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

    def _relevance(self, candidate: Candidate, now: datetime) -> float:
        """DESIGN relevance from the stored (plaintext) heat, importance computed at `now`."""
        hit = candidate.hit
        importance = importance_at(hit.heat, hit.memory_type, now, self._policy.base_rate)
        return relevance(
            candidate.similarity, importance, hit.heat.accessed_at, now, self._policy.weights
        )

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
