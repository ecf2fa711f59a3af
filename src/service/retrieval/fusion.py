"""Fusing dense and lexical rankings into one match score per memory (by score or by rank)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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


def fused_by_score(
    cosines: Mapping[UUID, float],
    bm25: Mapping[UUID, float],
    *,
    dense_share: float,
    dense_floor: float,
    top: float,
    rrf_k: int,
    more: Sequence[tuple[float, Sequence[UUID]]] = (),
) -> dict[UUID, float]:
    """top * (dense_share * dense + (1 - dense_share) * lexical), best first, where dense is
    the cosine from `dense_floor` (0) to the best found (1) and lexical the BM25 score over
    the best one's; `more` adds weight/(rrf_k + rank) for each further ranking.

    `cosines` holds every memory found (0.0 without a vector), `bm25` the lexical hits
    (a memory without one has no word in common: 0). Unlike ranks, scores keep the gaps: a
    turn far ahead on its cosine stays ahead of one that is merely next in the list (arXiv
    2606.04194's fusion). Each score counts from its natural zero rather than from the
    worst found, which the study's min-max does: for a user with a handful of memories the
    worst found is often on topic, and a match of 0 would leave it unordered against the
    memory that replaced it (docs/recall.md, "Fusion by score"). `dense_floor` is the
    model's cosine for an unrelated text. `top` is the match a memory first in both
    rankings gets, the same as by rank, so what later stages add in reciprocal ranks (facts,
    clusters) weighs as before.
    """
    dense = _from_floor(cosines, dense_floor)
    lexical = _from_floor(bm25, 0.0)
    scores = {
        memory_id: top * (
            dense_share * dense[memory_id] + (1.0 - dense_share) * lexical.get(memory_id, 0.0)
        )
        for memory_id in cosines
    }
    for weight, ranking in more:
        for rank, memory_id in enumerate(ranking, start=1):
            scores[memory_id] = scores.get(memory_id, 0.0) + weight / (rrf_k + rank)
    return dict(sorted(scores.items(), key=lambda item: -item[1]))


def _from_floor(values: Mapping[UUID, float], floor: float) -> dict[UUID, float]:
    """Each value's place between `floor` (0) and the largest (1), clipped to [0, 1]; when
    none is above the floor, every one is 1 (nothing to tell them apart by)."""
    if not values:
        return {}
    high = max(values.values())
    if high <= floor:
        return dict.fromkeys(values, 1.0)
    return {key: min(1.0, max(0.0, (value - floor) / (high - floor)))
            for key, value in values.items()}


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
        hits = rankings.hits()
        if tuning.fusion == "score":
            scores = fused_by_score(
                {i: rankings.similarities.get(i, 0.0) for i in hits},
                {c.id: c.score for c in rankings.lexical},
                dense_share=tuning.dense_share, dense_floor=tuning.dense_floor,
                rrf_k=tuning.rrf_k, more=more,
                top=(tuning.dense_weight + tuning.lexical_weight) / (tuning.rrf_k + 1),
            )
        else:
            scores = fused_scores(
                [c.id for c in rankings.dense], [c.id for c in rankings.lexical],
                k=tuning.rrf_k, dense_weight=tuning.dense_weight,
                lexical_weight=tuning.lexical_weight, more=more,
            )
        worded = {c.id for c in rankings.lexical} | named
        r.candidates = [
            Candidate(hits[i], rankings.similarities.get(i, 0.0), match, i in worded)
            for i, match in scores.items()
        ]
        r.named = named
