"""Facts joining retrieval: a question about a relation reaches the memory its fact came from."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from memlane.domain.facts import NEUTRAL_SCORE, USER, StoredFact, relations_asked
from memlane.domain.model import Owner, Vector
from memlane.domain.policy import RecallTuning
from memlane.ports.clock import Clock
from memlane.ports.facts import FactPort
from memlane.ports.memories import CandidateSearchPort
from memlane.service.facts import FactSealer
from memlane.service.retrieval.candidates import Candidate
from memlane.service.retrieval.pipeline import Retrieval

# Source memories a question brings at most (the best facts first).
MAX_FACT_SOURCES = 5


def _rank_key(fact: StoredFact) -> tuple[float, float, float]:
    score = NEUTRAL_SCORE if fact.user_fact_score is None else fact.user_fact_score
    return score, fact.confidence, fact.valid_from.timestamp()


class FactRecall:
    """Finds the current facts a query asks about ("What is my job?" -> works_as, works_at)
    and joins their source memories to the candidates as a third ranking of the fusion."""

    def __init__(
        self, facts: FactPort, sealer: FactSealer, search: CandidateSearchPort, clock: Clock,
        tuning: RecallTuning,
    ) -> None:
        self._facts = facts
        self._sealer = sealer
        self._search = search
        self._clock = clock
        self._tuning = tuning

    async def __call__(self, r: Retrieval) -> None:
        """The stage: reads and rewrites `candidates`."""
        r.candidates = await self.join(r.owner, r.query, r.candidates, r.vector)

    async def sources(self, owner: Owner, query: str) -> list[UUID]:
        """The source memories of the user's current facts of the relations `query` asks
        about, best fact first (no database call when it asks about none)."""
        asked = relations_asked(query)
        if not asked:
            return []
        stored_as = [self._sealer.relation_token(owner, r) for r in asked]
        found = await self._facts.current(owner, self._clock(), relations=stored_as)
        user = self._sealer.index(owner, USER)
        ranked = sorted(
            (f for f in found if f.subject_index == user and f.source_memory_id is not None),
            key=_rank_key, reverse=True,
        )
        ids: list[UUID] = []
        for fact in ranked:
            if fact.source_memory_id is not None and fact.source_memory_id not in ids:
                ids.append(fact.source_memory_id)
        return ids[:MAX_FACT_SOURCES]

    async def join(
        self,
        owner: Owner,
        query: str,
        ranked: Sequence[Candidate],
        vector: Vector | None,
    ) -> list[Candidate]:
        """`ranked` with the fact sources added or raised: each gains weight/(k + rank) as
        the lexical ranking's weight would give it, and is eligible whatever its cosine (a
        fact answers the question even when the words and the vector do not meet), best
        first again."""
        ids = await self.sources(owner, query)
        tuning = self._tuning
        if not ids:
            return list(ranked)
        by_id = {c.id: c for c in ranked}
        missing = [i for i in ids if i not in by_id]
        if missing:
            for hit in await self._search.candidates_by_id(owner, missing, vector):
                by_id[hit.id] = Candidate(hit, hit.score, 0.0, False)
        for rank, memory_id in enumerate(ids, start=1):
            candidate = by_id.get(memory_id)
            if candidate is None:
                continue  # deleted meanwhile
            candidate.match += tuning.lexical_weight / (tuning.rrf_k + rank)
            candidate.lexical = True  # eligible like a word match: the fact named it
        return sorted(by_id.values(), key=lambda c: -c.match)
