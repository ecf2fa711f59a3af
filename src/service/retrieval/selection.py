"""Selection: the best `places` candidates by match, the DESIGN relevance breaking near-ties."""

from __future__ import annotations

from collections.abc import Sequence

from memlane.domain.memories import importance_at, resonance
from memlane.domain.policy import MemoryPolicy
from memlane.domain.retrieval import relevance
from memlane.ports.memories import MemoryStorePort
from memlane.service.retrieval.candidates import Candidate
from memlane.service.retrieval.pipeline import Retrieval


class Ranking:
    """Among candidates of nearly equal match, relevance (importance, freshness) decides, so
    an old memory that matches well still beats a fresh one that does not. Ranked on lean
    rows (stored heat) alone: only the chosen few are read in full."""

    def __init__(self, policy: MemoryPolicy) -> None:
        self._policy = policy

    def best(self, r: Retrieval, candidates: Sequence[Candidate]) -> list[Candidate]:
        """The best `places` of the candidates; a candidate's relevance is computed once per
        retrieval (its match may change between two rankings: a neighbour can raise it)."""
        if not candidates:
            return []
        best_match = max(c.match for c in candidates)
        weight = self._policy.recall.relevance_tiebreak
        for c in candidates:
            if c.id not in r.relevances:
                r.relevances[c.id] = self._relevance(c, r)
        return sorted(
            candidates, key=lambda c: -(c.match / best_match + weight * r.relevances[c.id])
        )[: r.places]

    def _relevance(self, candidate: Candidate, r: Retrieval) -> float:
        """DESIGN relevance from the stored (plaintext) heat and traits, importance computed
        at the request's time; a memory stored before traits were kept adds no confidence
        and no resonance."""
        hit, now = candidate.hit, r.now
        importance = importance_at(hit.heat, hit.memory_type, now, self._policy.base_rate)
        traits = hit.traits
        return relevance(
            candidate.similarity, importance, hit.heat.accessed_at, now, self._policy.weights,
            confidence=0.0 if traits is None else traits.confidence,
            resonance=0.0 if traits is None else resonance(r.query_affect, traits.affect),
        )


class Prefetch:
    """Starts reading in full the entries likely to win while neighbours are found
    (neighbours score below their seed and only raise matches, so the best match stays an
    entry) that the whose stage has not read already; Opening waits for it."""

    def __init__(self, store: MemoryStorePort, ranking: Ranking) -> None:
        self._store = store
        self._ranking = ranking

    async def __call__(self, r: Retrieval) -> None:
        unread = [c.id for c in self._ranking.best(r, r.candidates) if c.id not in r.prefetched]
        if unread:
            r.start("prefetch", self._store.get_many(r.owner, unread, indexed=False))


class Selection:
    """Writes `chosen`: the best `places` of the entries and the memories joined to them."""

    def __init__(self, ranking: Ranking) -> None:
        self._ranking = ranking

    async def __call__(self, r: Retrieval) -> None:
        r.chosen = self._ranking.best(r, r.candidates + r.added)
