"""Semantic edges at write time: the new memory linked to similar older ones."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

from memlane.domain.graph.edges import Edge, EdgeKind
from memlane.domain.similarity import DEFAULT_SCALE

# The default model's line (domain/similarity.py); for all-MiniLM-L6-v2 calibrated on LoCoMo
# (bench/semantic_threshold.py): the lowest cosine at which 80 % of linked turn pairs answer
# the same question (docs/graph.md).
DEFAULT_SEMANTIC_THRESHOLD = DEFAULT_SCALE.semantic_threshold
MAX_SEMANTIC_EDGES = 20


def semantic_edges(
    new_id: UUID,
    near: Sequence[tuple[UUID, float]],
    now: datetime,
    *,
    threshold: float = DEFAULT_SEMANTIC_THRESHOLD,
    limit: int = MAX_SEMANTIC_EDGES,
) -> list[Edge]:
    """new -> older edges weighted by cosine, for the neighbours at or above `threshold`,
    strongest first, at most `limit`. Cosines that are NaN or outside [0, 1] are ignored
    (a negative cosine is no similarity)."""
    chosen: dict[UUID, float] = {}
    for memory_id, cosine in near:
        if memory_id == new_id or math.isnan(cosine) or not max(0.0, threshold) <= cosine <= 1:
            continue
        chosen[memory_id] = max(cosine, chosen.get(memory_id, cosine))
    best = sorted(chosen.items(), key=lambda item: (-item[1], str(item[0])))[: max(0, limit)]
    return [Edge(new_id, old, EdgeKind.SEMANTIC, cos, now, now) for old, cos in best]
