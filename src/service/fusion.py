"""Fusing dense and lexical rankings into one candidate order (reciprocal-rank fusion)."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from memlane.domain.model import DenseHit, LexicalHit

# The constant of Cormack et al. (2009): damps the head of each list so that no single
# ranking dominates; 60 is their recommended default and rarely needs tuning.
RRF_K = 60


def fuse(dense: Sequence[DenseHit], lexical: Sequence[LexicalHit], k: int = RRF_K) -> list[UUID]:
    """Memory ids, best first, by summed 1/(k + rank) over both rankings.

    Ties keep first-seen order (dense before lexical), so the result is deterministic.
    """
    scores: dict[UUID, float] = {}
    for ranking in ([h.stored.id for h in dense], [h.stored.id for h in lexical]):
        for rank, memory_id in enumerate(ranking, start=1):
            scores[memory_id] = scores.get(memory_id, 0.0) + 1.0 / (k + rank)
    return sorted(scores, key=lambda memory_id: -scores[memory_id])
