"""The tunable numbers of the memory rules, as one immutable value the service is built with."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from memlane.domain.errors import InvalidTuning
from memlane.domain.memories import (
    DEFAULT_GRACE_DAYS,
    CleanupRule,
    CueBook,
    base_rate_per_day,
)
from memlane.domain.retrieval import DEFAULT_CONTEXT_CHAR_BUDGET, RelevanceWeights
from memlane.domain.similarity import DEFAULT_SCALE

if TYPE_CHECKING:
    from memlane.domain.graph import LearnedJudge

MIN_LEARN_CHARS = 20
MAX_CONTENT_BYTES = 32 * 1024
MAX_TAGS = 32
MAX_TAG_CHARS = 64
# Metadata is the caller's structured extra: bounded so that one user's lists and contexts
# stay small (unbounded, 100,000 keys made every list of that user answer 21 MB).
MAX_METADATA_DEPTH = 8
MAX_METADATA_KEYS = 256
MAX_METADATA_BYTES = 16 * 1024


# How the dense and the lexical rankings become one (RecallTuning.fusion).
FUSIONS = ("score", "rank")


@dataclass(frozen=True)
class RecallTuning:
    """How candidates for context are found and chosen; docs/recall.md measures each knob.

    candidate_pool: memories each ranking (dense, lexical) contributes before fusion.
    fusion: "score" (the default) fuses the cosine and the BM25 score, each normalised (the
    cosine from dense_floor, the model's cosine for an unrelated text, to the best found;
    BM25 over the best found), as dense_share * dense + (1 - dense_share) * BM25, scaled so
    that a memory first in both rankings gets the match it would get by rank;
    "rank" fuses the two rankings by weighted reciprocal rank instead.
    rrf_k, dense_weight, lexical_weight: weighted reciprocal-rank fusion (and, by score, the
    scale of the match: (dense_weight + lexical_weight) / (rrf_k + 1) at the top). The
    rankings a question's names and times add are fused by rank either way.
    neighbour_span / neighbour_seeds / neighbour_weight: the best `neighbour_seeds` hits
    bring the memories up to `neighbour_span` places before and after them in their
    conversation, each scored its seed's match times `neighbour_weight` per step away (or
    its own match, if higher), scaled by its own relevance: `neighbour_relevance` of the
    inheritance follows its cosine to the query relative to its seeds' best, both counted
    from `neighbour_floor`, the model's cosine for an unrelated turn (0: a filler turn
    inherits as much as an on-topic one). conversation_weight / conversation_hits: each match
    is raised by conversation_weight times the sum of its conversation's best
    `conversation_hits` matches, relative to the best conversation's. A small rrf_k makes the
    head of each ranking count: on LoCoMo, 10 beat the customary 60 by 0.06 recall@10.
    relevance_tiebreak: how much the DESIGN relevance (similarity, importance, freshness)
    adds to the normalised match score when choosing among candidates. reply_weight: the
    share of its match a memory of the assistant's words alone keeps (provenance `replied`),
    found or brought as a neighbour: what the user said outranks the reply that echoes it.
    time_weight: the weight of one more first-stage ranking, the memories written within
    the time the question points at ("four weeks ago", "letzte Woche"), fused like the
    dense and lexical ones (0: no such ranking). whose_weight: for a question about the
    user or one relative ("What is my brother allergic to?"), the best `WHOSE_DEPTH`
    candidates are read for whose fact they state; one about the relative asked about
    gains this share of its match, one about another person loses it (0: not read).
    query_centring: the share of the mean document vector taken out of each question before
    it is compared (domain/retrieval/centring.py; 0: the question as embedded).
    """

    candidate_pool: int = 50
    fusion: str = "score"
    dense_share: float = 0.6
    dense_floor: float = 0.0  # the model's `SimilarityScale.unrelated`: a cosine's zero
    rrf_k: int = 10
    dense_weight: float = 1.0
    lexical_weight: float = 2.0
    neighbour_span: int = 2
    neighbour_seeds: int = 4
    neighbour_weight: float = 0.9
    neighbour_relevance: float = 0.5
    neighbour_floor: float = 0.0  # the model's `SimilarityScale.unrelated`
    conversation_weight: float = 0.5
    conversation_hits: int = 3
    relevance_tiebreak: float = 0.05
    reply_weight: float = 0.5
    time_weight: float = 1.0
    whose_weight: float = 0.8
    # The model's (question language, memory language, cosine offset)s: `SimilarityScale`.
    language_offsets: tuple[tuple[str, str, float], ...] = ()
    # The share of the mean document vector taken out of a question (`SimilarityScale`).
    query_centring: float = 0.0
    # Retrieval stages left out (composition/retrieval.py names the optional ones).
    skip_stages: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.candidate_pool < 1:
            raise InvalidTuning("candidate_pool", "must be at least 1")
        for name in ("rrf_k", "neighbour_span", "neighbour_seeds", "conversation_hits"):
            if getattr(self, name) < 0:
                raise InvalidTuning(name, "must not be negative")
        for name in (
            "dense_weight", "lexical_weight", "neighbour_weight", "neighbour_relevance",
            "conversation_weight", "relevance_tiebreak", "reply_weight", "time_weight",
        ):
            value = getattr(self, name)
            if not 0.0 <= value < float("inf"):
                raise InvalidTuning(name, f"must be finite and not negative, got {value}")
        if not 0.0 <= self.whose_weight < 1.0:
            raise InvalidTuning("whose_weight", "must be within [0, 1)")
        if not 0.0 <= self.query_centring <= 1.0:
            raise InvalidTuning("query_centring", "must be within [0, 1]")
        for name in ("neighbour_floor", "dense_floor"):
            if not -1.0 <= getattr(self, name) < 1.0:
                raise InvalidTuning(name, "must be within [-1, 1)")
        for name in ("neighbour_relevance", "reply_weight"):
            if getattr(self, name) > 1.0:
                raise InvalidTuning(name, "must be within [0, 1]")
        if self.fusion not in FUSIONS:
            raise InvalidTuning(
                "fusion", f"must be one of {', '.join(FUSIONS)}, got {self.fusion!r}"
            )
        if not 0.0 <= self.dense_share <= 1.0:
            raise InvalidTuning("dense_share", "must be within [0, 1]")
        if self.dense_weight == 0 and self.lexical_weight == 0:
            raise InvalidTuning("lexical_weight", "cannot be zero when dense_weight is zero too")


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
    than `entity_max_share` of the owner's memories mention is passed over. The sleep
    cycle removes edges whose strength has faded below `min_edge_strength`; a scheduled or
    API run of it reads at most `sleep_budget` memories, the next run goes on from there.
    With `clusters` the cycle also groups each owner's related memories into summary nodes,
    and a question reaches the `cluster_members` best members of each of its
    `cluster_matches` nearest summaries, fused at `cluster_weight` (docs/graph.md,
    "Clusters").
    """

    enabled: bool = True
    # Cosine lines: the default model's (domain/similarity.py keeps them per model).
    semantic_threshold: float = DEFAULT_SCALE.semantic_threshold
    max_semantic_edges: int = 20
    supersession_band: tuple[float, float] = DEFAULT_SCALE.supersession_band
    supersession_candidates: int = 5
    # The learned judge of what the rules leave undecided (docs/supersession.md); None: the
    # rules alone. The composition root loads its weights when `graph.supersession_judge`
    # asks for it.
    learned_judge: LearnedJudge | None = None
    expansion_seeds: int = 3
    expansion_hops: int = 2
    expansion_limit: int = 20
    expansion_weight: float = 0.8
    expansion_fan_out: int = 3
    entity_weight: float = 0.5
    entity_candidates: int = 500
    entity_max_share: float = 0.1
    min_edge_strength: float = 0.05
    # ~3.5 s of batches on a 2-core machine (bench/scale_sleep.py), so that a run with its
    # pruning stays within cleanup's budget even on the first cycle over a million rows.
    sleep_budget: int = 25_000
    clusters: bool = False
    cluster_matches: int = 2
    cluster_members: int = 3
    cluster_weight: float = 1.0

    def __post_init__(self) -> None:
        for name in (
            "cluster_matches", "cluster_members", "max_semantic_edges",
            "supersession_candidates", "expansion_seeds",
            "expansion_limit", "expansion_fan_out", "entity_candidates",
        ):
            if getattr(self, name) < 0:
                raise InvalidTuning(name, "must not be negative")
        for name in ("expansion_hops", "sleep_budget"):
            if getattr(self, name) < 1:
                raise InvalidTuning(name, "must be at least 1")
        for name in ("expansion_weight", "entity_max_share", "min_edge_strength"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise InvalidTuning(name, "must be within [0, 1]")
        for name in ("entity_weight", "cluster_weight"):
            if not 0.0 <= getattr(self, name) < float("inf"):
                raise InvalidTuning(name, "must be finite and not negative")
        # Cosines: within [-1, 1]. NaN fails every comparison, so it is refused too.
        if not -1.0 <= self.semantic_threshold <= 1.0:
            raise InvalidTuning("semantic_threshold", "must be a cosine, within [-1, 1]")
        low, high = self.supersession_band
        if not -1.0 <= low <= high <= 1.0:
            raise InvalidTuning(
                "supersession_band", "must be [low, high] with -1 <= low <= high <= 1"
            )

    @property
    def probe_neighbours(self) -> int:
        """How many nearest memories the write probe returns for the graph."""
        return max(1, self.max_semantic_edges, self.supersession_candidates) if self.enabled else 1


@dataclass(frozen=True)
class DetailTuning:
    """Levels of detail, a memory's metadata and the heuristic gate (docs/levels.md).

    token_budget: what a prompt block may use, counted with the embedder's tokenizer.
    level_of_detail: render the prompt block by level of detail (focus in full, neighbours
    as abstracts, the rest as counts); off (the default until its measured cost, +62 ms
    context p50 over whole lines, is cut): whole lines within context_char_budget.
    neighbour_lines: at most this many one-hop abstract lines. arousal_importance_gain: a
    charged memory starts this much (x arousal) more important. gate: the heuristic gate on
    conversation segments (off: every segment runs the heavier steps). silent_limit: the
    gate's dead man's switch fires after this many silent segments. focus: session focus
    (RMG 5-8): a context asked for in a conversation boosts memories near its focus (the
    `focus_size` memories its contexts handed out most) by `focus_weight`, halved per hop
    up to `focus_hops`; a new conversation resumes the focus of the user's latest one on
    the question's topic (of the `resume_recent` latest), its memories entering at
    `resume_share` of the best match.
    """

    token_budget: int = 800
    level_of_detail: bool = False
    neighbour_lines: int = 12
    arousal_importance_gain: float = 0.1
    gate: bool = True
    silent_limit: int = 8
    focus: bool = False
    focus_size: int = 5
    focus_hops: int = 2
    focus_weight: float = 0.1
    resume_recent: int = 20
    resume_share: float = 0.5

    def __post_init__(self) -> None:
        if self.token_budget < 1:
            raise InvalidTuning("token_budget", "must be at least 1")
        for name in ("neighbour_lines", "silent_limit", "focus_size", "focus_hops",
                     "resume_recent"):
            if getattr(self, name) < 0:
                raise InvalidTuning(name, "must not be negative")
        for name in ("arousal_importance_gain", "focus_weight", "resume_share"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise InvalidTuning(name, "must be within [0, 1]")


@dataclass(frozen=True)
class MemoryPolicy:
    """Defaults are the seed's `[memory]` values; DESIGN.md §2 explains each."""

    rag_limit: int = 5
    # Cosine lines: the default model's (domain/similarity.py keeps them per model).
    rag_threshold: float = DEFAULT_SCALE.rag_threshold
    merge_threshold: float = DEFAULT_SCALE.merge_threshold
    active_context_similarity: float = DEFAULT_SCALE.active_context
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
    detail: DetailTuning = field(default_factory=DetailTuning)
    cleanup_grace_days: float = DEFAULT_GRACE_DAYS

    def __post_init__(self) -> None:
        CleanupRule(self.min_importance, self.cleanup_grace_days)  # its checks: InvalidTuning
        # Cosine thresholds live in [-1, 1]; importance in [0, 1]. NaN fails every comparison.
        for name in ("rag_threshold", "merge_threshold", "active_context_similarity"):
            value = getattr(self, name)
            if not -1.0 <= value <= 1.0:
                raise InvalidTuning(name, f"must be within [-1, 1], got {value}")
        if not 0.0 <= self.min_importance <= 1.0:
            raise InvalidTuning(
                "min_importance", f"must be within [0, 1], got {self.min_importance}"
            )
        for name in ("rag_limit", "max_content_bytes", "max_metadata_depth",
                     "max_metadata_keys", "max_metadata_bytes"):
            if getattr(self, name) < 1:
                raise InvalidTuning(name, "must be at least 1")
        for name in ("context_char_budget", "min_learn_chars"):
            if getattr(self, name) < 0:
                raise InvalidTuning(name, "must not be negative")
        base_rate_per_day(self.decay_factor)  # decay's own check: within (0, 1]

    @property
    def base_rate(self) -> float:
        return base_rate_per_day(self.decay_factor)

    @property
    def cleanup(self) -> CleanupRule:
        """What `memlane cleanup` may delete (domain/memories/cleanup.py)."""
        return CleanupRule(self.min_importance, self.cleanup_grace_days)
