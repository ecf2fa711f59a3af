"""The tunable numbers of the memory rules, as one immutable value the service is built with."""

from __future__ import annotations

from dataclasses import dataclass, field

from memlane.domain.memories.cleanup import DEFAULT_GRACE_DAYS, CleanupRule
from memlane.domain.memories.decay import base_rate_per_day
from memlane.domain.memories.importance import CueBook
from memlane.domain.retrieval.context import DEFAULT_CONTEXT_CHAR_BUDGET
from memlane.domain.retrieval.scoring import RelevanceWeights

MIN_LEARN_CHARS = 20
MAX_CONTENT_BYTES = 32 * 1024
MAX_TAGS = 32
MAX_TAG_CHARS = 64
# Metadata is the caller's structured extra: bounded so that one user's lists and contexts
# stay small (unbounded, 100,000 keys made every list of that user answer 21 MB).
MAX_METADATA_DEPTH = 8
MAX_METADATA_KEYS = 256
MAX_METADATA_BYTES = 16 * 1024


@dataclass(frozen=True)
class RecallTuning:
    """How candidates for context are found and chosen; docs/recall.md measures each knob.

    candidate_pool: memories each ranking (dense, lexical) contributes before fusion.
    rrf_k, dense_weight, lexical_weight: weighted reciprocal-rank fusion.
    neighbour_span / neighbour_seeds / neighbour_weight: the best `neighbour_seeds` hits
    bring the memories up to `neighbour_span` places before and after them in their
    conversation, each scored its seed's match times `neighbour_weight` per step away (or
    its own match, if higher), scaled by its own relevance: `neighbour_relevance` of the
    inheritance follows its cosine to the query relative to its seeds' best (0: a filler turn
    inherits as much as an on-topic one). conversation_weight / conversation_hits: each match
    is raised by conversation_weight times the sum of its conversation's best
    `conversation_hits` matches, relative to the best conversation's. A small rrf_k makes the
    head of each ranking count: on LoCoMo, 10 beat the customary 60 by 0.06 recall@10.
    relevance_tiebreak: how much the DESIGN relevance (similarity, importance, freshness)
    adds to the normalised match score when choosing among candidates.
    """

    candidate_pool: int = 50
    rrf_k: int = 10
    dense_weight: float = 1.0
    lexical_weight: float = 2.0
    neighbour_span: int = 2
    neighbour_seeds: int = 4
    neighbour_weight: float = 0.9
    neighbour_relevance: float = 0.5
    conversation_weight: float = 0.5
    conversation_hits: int = 3
    relevance_tiebreak: float = 0.05

    def __post_init__(self) -> None:
        if self.candidate_pool < 1 or self.rrf_k < 0:
            raise ValueError("candidate_pool must be at least 1 and rrf_k not negative")
        if self.neighbour_span < 0 or self.neighbour_seeds < 0 or self.conversation_hits < 0:
            raise ValueError(
                "neighbour_span, neighbour_seeds and conversation_hits must not be negative"
            )
        for name in (
            "dense_weight", "lexical_weight", "neighbour_weight", "neighbour_relevance",
            "conversation_weight", "relevance_tiebreak",
        ):
            value = getattr(self, name)
            if not 0.0 <= value < float("inf"):
                raise ValueError(f"{name} must be finite and not negative, got {value}")
        if self.neighbour_relevance > 1.0:
            raise ValueError("neighbour_relevance must be within [0, 1]")
        if self.dense_weight == 0 and self.lexical_weight == 0:
            raise ValueError("dense_weight and lexical_weight cannot both be zero")


@dataclass(frozen=True)
class GraphTuning:
    """How the graph grows at write time (docs/graph.md measures each number).

    semantic_threshold: cosine from which a new memory links to an older one (calibrated
    for all-MiniLM-L6-v2 by bench/semantic_threshold.py); max_semantic_edges: per memory,
    the weakest gives way; supersession_band: the cosines within which an older memory can
    be the one a new statement replaces; supersession_candidates: how many of those are read
    and judged per new memory. At read time the best `expansion_seeds` entries spread
    activation up to `expansion_hops` edges; at most `expansion_limit` memories join, each
    matching its activation x `expansion_weight` of the best entry's match; each memory
    spreads over its `expansion_fan_out` strongest edges per direction. Names in a
    question reach up to `entity_candidates` memories that mention them, ranked by cosine
    and fused with the dense and lexical rankings at `entity_weight` (0: off); a name more
    than `entity_max_share` of the owner's memories mention is passed over.
    """

    enabled: bool = True
    semantic_threshold: float = 0.35
    max_semantic_edges: int = 20
    supersession_band: tuple[float, float] = (0.35, 1.0)
    supersession_candidates: int = 5
    expansion_seeds: int = 3
    expansion_hops: int = 2
    expansion_limit: int = 20
    expansion_weight: float = 0.8
    expansion_fan_out: int = 3
    entity_weight: float = 0.5
    entity_candidates: int = 500
    entity_max_share: float = 0.1

    def __post_init__(self) -> None:
        if self.expansion_fan_out < 0:
            raise ValueError("expansion_fan_out must not be negative")
        if self.expansion_seeds < 0 or self.expansion_limit < 0 or self.expansion_hops < 1:
            raise ValueError("expansion seeds and limit must not be negative, hops at least 1")
        if not 0.0 <= self.expansion_weight <= 1.0:
            raise ValueError("expansion_weight must be within [0, 1]")
        if self.entity_weight < 0 or self.entity_candidates < 0:
            raise ValueError("entity_weight and entity_candidates must not be negative")
        if not 0.0 <= self.entity_max_share <= 1.0:
            raise ValueError("entity_max_share must be within [0, 1]")
        low, high = self.supersession_band
        if not -1.0 <= self.semantic_threshold <= 1.0 or not -1.0 <= low <= high <= 1.0:
            raise ValueError("graph thresholds are cosines: within [-1, 1], band low <= high")
        if self.max_semantic_edges < 0 or self.supersession_candidates < 0:
            raise ValueError("max_semantic_edges and supersession_candidates must not be negative")

    @property
    def probe_neighbours(self) -> int:
        """How many nearest memories the write probe returns for the graph."""
        return max(1, self.max_semantic_edges, self.supersession_candidates) if self.enabled else 1


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
    max_metadata_depth: int = MAX_METADATA_DEPTH
    max_metadata_keys: int = MAX_METADATA_KEYS
    max_metadata_bytes: int = MAX_METADATA_BYTES
    recall: RecallTuning = field(default_factory=RecallTuning)
    graph: GraphTuning = field(default_factory=GraphTuning)
    cleanup_grace_days: float = DEFAULT_GRACE_DAYS

    def __post_init__(self) -> None:
        CleanupRule(self.min_importance, self.cleanup_grace_days)  # its own checks
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
        if min(self.max_metadata_depth, self.max_metadata_keys, self.max_metadata_bytes) < 1:
            raise ValueError("the metadata bounds must be at least 1")
        base_rate_per_day(self.decay_factor)

    @property
    def base_rate(self) -> float:
        return base_rate_per_day(self.decay_factor)

    @property
    def cleanup(self) -> CleanupRule:
        """What `memlane cleanup` may delete (domain/memories/cleanup.py)."""
        return CleanupRule(self.min_importance, self.cleanup_grace_days)
