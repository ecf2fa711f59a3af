"""Fusing dense and lexical rankings into one match score per memory (weighted reciprocal rank)."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID


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

