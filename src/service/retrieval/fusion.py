"""Fusing dense and lexical rankings into one match score per memory (weighted reciprocal rank)."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from memlane.domain.policy import RecallTuning
from memlane.service.retrieval.candidates import Candidate
from memlane.service.retrieval.pipeline import Retrieval


def fused_scores(
    dense: Sequence[UUID],
    lexical: Sequence[UUID],
    *,
    k: int,
    dense_weight: float,
    lexical_weight: float,
    more: Sequence[tuple[float, Sequence[UUID]]] = (),
) -> dict[UUID, float]:
    """Summed weight/(k + rank) (Cormack et al., 2009; k and the weights come from the
    policy's RecallTuning) over both rankings (memory ids, best first), best first
    (ties: dense before lexical). `more`: further (weight, ranking) pairs, such as the
    memories the question's names reach.

    Rank fusion needs no calibration between a cosine and a BM25 score, which live on
    unrelated scales and shift with every query.
    """
    scores: dict[UUID, float] = {}
    for weight, ranking in (
        (dense_weight, dense),
        (lexical_weight, lexical),
        *more,
    ):
        for rank, memory_id in enumerate(ranking, start=1):
            scores[memory_id] = scores.get(memory_id, 0.0) + weight / (k + rank)
    return dict(sorted(scores.items(), key=lambda item: -item[1]))



class Fusion:
    """Reads `rankings`; writes `candidates` (best first) and `named`. A memory that names
    what the question names is eligible like a word match."""

    def __init__(self, tuning: RecallTuning, entity_weight: float) -> None:
        self._tuning = tuning
        self._entity_weight = entity_weight

    async def __call__(self, r: Retrieval) -> None:
        rankings, tuning = r.rankings, self._tuning
        named = frozenset(c.id for c in rankings.by_name)
        more = [(self._entity_weight, [c.id for c in rankings.by_name])] if named else []
        if rankings.by_time:
            more.append((tuning.time_weight, [c.id for c in rankings.by_time]))
        scores = fused_scores(
            [c.id for c in rankings.dense], [c.id for c in rankings.lexical], k=tuning.rrf_k,
            dense_weight=tuning.dense_weight, lexical_weight=tuning.lexical_weight, more=more,
        )
        hits = rankings.hits()
        worded = {c.id for c in rankings.lexical} | named
        r.candidates = [
            Candidate(hits[i], rankings.similarities.get(i, 0.0), match, i in worded)
            for i, match in scores.items()
        ]
        r.named = named
