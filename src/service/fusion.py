"""Fusing dense and lexical rankings into one match score per memory (weighted reciprocal rank)."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

# The constant of Cormack et al. (2009): damps the head of each list so that no single
# ranking dominates; 60 is their recommended default.
RRF_K = 60


def fused_scores(
    dense: Sequence[UUID],
    lexical: Sequence[UUID],
    *,
    k: int = RRF_K,
    dense_weight: float = 1.0,
    lexical_weight: float = 1.0,
) -> dict[UUID, float]:
    """Summed weight/(k + rank) over both rankings (memory ids, best first), best first
    (ties: dense before lexical).

    Rank fusion needs no calibration between a cosine and a BM25 score, which live on
    unrelated scales and shift with every query.
    """
    scores: dict[UUID, float] = {}
    for weight, ranking in (
        (dense_weight, dense),
        (lexical_weight, lexical),
    ):
        for rank, memory_id in enumerate(ranking, start=1):
            scores[memory_id] = scores.get(memory_id, 0.0) + weight / (k + rank)
    return dict(sorted(scores.items(), key=lambda item: -item[1]))


def fuse(dense: Sequence[UUID], lexical: Sequence[UUID], k: int = RRF_K) -> list[UUID]:
    """Memory ids, best first, by equally weighted reciprocal-rank fusion."""
    return list(fused_scores(dense, lexical, k=k))
