"""Opening: the chosen candidates read in full, decrypted, scored; and the search's own cut."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

from memlane.domain.detail import Affect
from memlane.domain.memories import resonance
from memlane.domain.model import Owner, ScoredMemory, StoredMemory
from memlane.domain.retrieval import RelevanceWeights, relevance
from memlane.ports.memories import MemoryStorePort
from memlane.service.retrieval.candidates import Candidate
from memlane.service.retrieval.pipeline import Retrieval
from memlane.service.security import Sealer


class Opening:
    """Reads `chosen` (and what Prefetch and, for a prompt, Whose read); writes `opened`, in
    the chosen order. A memory deleted meanwhile, or one that does not decrypt, is left
    out: a damaged row never fails the whole search or context."""

    def __init__(
        self, store: MemoryStorePort, sealer: Sealer, weights: RelevanceWeights,
        *, unindexed: bool,
    ) -> None:
        """`unindexed`: a prompt needs no index terms or embedding, so they are not read."""
        self._store = store
        self._sealer = sealer
        self._weights = weights
        self._unindexed = unindexed

    async def __call__(self, r: Retrieval) -> None:
        prefetched: list[StoredMemory] = await r.result("prefetch", [])
        # Rows read without their index terms serve a prompt, not a search's results.
        read = dict(r.prefetched) if self._unindexed else {}
        read.update((s.id, s) for s in prefetched)
        r.opened = await self.open(r.owner, r.chosen, r.now, read, r.query_affect)

    async def open(
        self, owner: Owner, chosen: Sequence[Candidate], now: datetime,
        read: dict[UUID, StoredMemory], query_affect: Affect | None = None,
    ) -> list[ScoredMemory]:
        if not chosen:
            return []
        rows = dict(read)
        missing = [c.id for c in chosen if c.id not in rows]
        if missing:
            found = await self._store.get_many(owner, missing, indexed=not self._unindexed)
            rows.update({r.id: r for r in found})
        scored: list[ScoredMemory] = []
        for candidate in chosen:
            stored = rows.get(candidate.id)
            memory = None if stored is None else self._sealer.readable(stored, now)
            if memory is None:
                continue
            score = relevance(
                candidate.similarity, memory.importance, memory.accessed_at, now, self._weights,
                confidence=memory.traits.confidence,
                resonance=resonance(query_affect, memory.traits.affect),
            )
            scored.append(ScoredMemory(memory, candidate.similarity, score, candidate.match))
        return scored


class SearchCut:
    """Search's selection: `chosen` is the best `places` by match, each at or above
    `min_similarity` when the query has a vector (lexical-only hits included)."""

    async def __call__(self, r: Retrieval) -> None:
        ranked = r.candidates
        if r.vector is not None and r.min_similarity is not None:
            floor = r.min_similarity
            ranked = [c for c in ranked if c.similarity >= floor]
        r.chosen = ranked[: r.places]
