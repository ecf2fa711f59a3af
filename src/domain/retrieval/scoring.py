"""Relevance: similarity, importance and freshness combined with configurable weights."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from memlane.domain.similarity import DEFAULT_SCALE

FRESHNESS_RATE_PER_HOUR = 0.01
SECONDS_PER_HOUR = 3_600.0


@dataclass(frozen=True, slots=True)
class RelevanceWeights:
    # The default model's weight of its cosine (domain/similarity.py: 0.5 for MiniLM).
    similarity: float = DEFAULT_SCALE.relevance_similarity
    importance: float = 0.20
    freshness: float = 0.30

    def __post_init__(self) -> None:
        values = (self.similarity, self.importance, self.freshness)
        # `min(...) < 0` alone lets NaN through: NaN compares false with everything.
        if not all(math.isfinite(v) and v >= 0 for v in values):
            raise ValueError(f"relevance weights must be finite and not negative, got {values}")
        if not any(v > 0 for v in values):
            raise ValueError("at least one relevance weight must be positive")


DEFAULT_WEIGHTS = RelevanceWeights()  # frozen, so one shared default is safe


def freshness(accessed_at: datetime, now: datetime) -> float:
    """exp(-0.01 * hours since last access): ~1 now, ~0.79 after a day, ~0.19 after a week."""
    hours = max(0.0, (now - accessed_at).total_seconds() / SECONDS_PER_HOUR)
    return math.exp(-FRESHNESS_RATE_PER_HOUR * hours)


def relevance(
    similarity: float,
    importance: float,
    accessed_at: datetime,
    now: datetime,
    weights: RelevanceWeights = DEFAULT_WEIGHTS,
) -> float:
    """The combined score used to pick memories for context."""
    return (
        weights.similarity * similarity
        + weights.importance * importance
        + weights.freshness * freshness(accessed_at, now)
    )
