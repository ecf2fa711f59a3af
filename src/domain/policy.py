"""The tunable numbers of the memory rules, as one immutable value the service is built with."""

from __future__ import annotations

from dataclasses import dataclass, field

from memlane.domain.context import DEFAULT_CONTEXT_CHAR_BUDGET
from memlane.domain.decay import base_rate_per_day
from memlane.domain.importance import CueBook
from memlane.domain.scoring import RelevanceWeights

MIN_LEARN_CHARS = 20
MAX_CONTENT_BYTES = 32 * 1024
MAX_TAGS = 32
MAX_TAG_CHARS = 64


@dataclass(frozen=True)
class MemoryPolicy:
    """Defaults are the seed's `[memory]` values; DESIGN.md §2 explains each."""

    rag_limit: int = 5
    rag_threshold: float = 0.25
    merge_threshold: float = 0.85
    min_importance: float = 0.1
    decay_factor: float = 0.95
    context_char_budget: int = DEFAULT_CONTEXT_CHAR_BUDGET
    weights: RelevanceWeights = field(default_factory=RelevanceWeights)
    cues: CueBook = field(default_factory=CueBook.default)
    max_content_bytes: int = MAX_CONTENT_BYTES
    min_learn_chars: int = MIN_LEARN_CHARS

    def __post_init__(self) -> None:
        # Cosine thresholds live in [-1, 1]; importance in [0, 1]. NaN fails every comparison.
        for name in ("rag_threshold", "merge_threshold"):
            value = getattr(self, name)
            if not -1.0 <= value <= 1.0:
                raise ValueError(f"{name} must be within [-1, 1], got {value}")
        if not 0.0 <= self.min_importance <= 1.0:
            raise ValueError(f"min_importance must be within [0, 1], got {self.min_importance}")
        if self.rag_limit < 1:
            raise ValueError("rag_limit must be at least 1")
        if self.context_char_budget < 0:
            raise ValueError("context_char_budget must not be negative")
        if self.max_content_bytes < 1:
            raise ValueError("max_content_bytes must be at least 1")
        if self.min_learn_chars < 0:
            raise ValueError("min_learn_chars must not be negative")
        base_rate_per_day(self.decay_factor)

    @property
    def base_rate(self) -> float:
        return base_rate_per_day(self.decay_factor)
