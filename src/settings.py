"""Settings: config.toml, then MEMLANE_* environment variables (`__` for nesting)."""

from __future__ import annotations

import os
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    SettingsError,
    TomlConfigSettingsSource,
)

from memlane import settings_errors
from memlane.domain.errors import ConfigurationError
from memlane.domain.facts import ProfileCaps, ProfileHeaders
from memlane.domain.memories import CueBook
from memlane.domain.policy import DetailTuning, GraphTuning, MemoryPolicy, RecallTuning
from memlane.domain.retrieval import RelevanceWeights
from memlane.domain.similarity import (
    DEFAULT_EMBEDDING_MODEL,
    DEFAULT_SCALE,
    SimilarityScale,
    scale_of,
)
from memlane.ports.embedding import EmbeddingProvider
from memlane.ports.facts import ExtractionProvider
from memlane.settings_extraction import LEGACY_FACT_SETTINGS, ExtractionSettings, with_legacy
from memlane.settings_proxy import ProxySettings

T = TypeVar("T")
CONFIG_ENV = "MEMLANE_CONFIG"
DEFAULT_CONFIG_FILE = "config.toml"

# The tuning defaults are the domain's: each setting below that the domain has a rule for
# takes its default from these values (written once, in src/domain), and adds only the range
# a config file may ask for. Invariants across values (a band's low <= high) are the
# domain's too: each section builds its domain value when it loads, so a value the domain
# refuses is a configuration error in one line naming the setting.
_POLICY = MemoryPolicy()
_WEIGHTS = _POLICY.weights
_RECALL = _POLICY.recall
_GRAPH = _POLICY.graph
_DETAIL = _POLICY.detail
_CAPS = ProfileCaps()
_HEADERS = ProfileHeaders()


def _or(value: T | None, model_value: T) -> T:
    """A cosine line as set, or the embedding model's when not set."""
    return model_value if value is None else value


def data_home() -> Path:
    """Where memlane keeps its data by default: $XDG_DATA_HOME/memlane, ~/.local/share/memlane
    when that is unset or relative (the XDG rule). Never the current directory: a command
    run from elsewhere must find the same database and key."""
    base = os.environ.get("XDG_DATA_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path.home() / ".local" / "share"
    return root / "memlane"


def state_home() -> Path:
    """Where memlane keeps state that an old backup of the data must not bring back (the
    erasure journal): $XDG_STATE_HOME/memlane, ~/.local/state/memlane by the XDG rule. Apart
    from data_home on purpose: a copy of the data folder never holds it (docs/security.md)."""
    base = os.environ.get("XDG_STATE_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path.home() / ".local" / "state"
    return root / "memlane"


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RelevanceSettings(_Section):
    # None: the configured embedding model's weight (domain/similarity.py).
    similarity: float | None = Field(None, ge=0)
    importance: float = Field(_WEIGHTS.importance, ge=0)
    freshness: float = Field(_WEIGHTS.freshness, ge=0)
    confidence: float = Field(_WEIGHTS.confidence, ge=0, le=10)
    emotion: float = Field(_WEIGHTS.emotion, ge=0, le=10)

    def weights(self, scale: SimilarityScale | None = None) -> RelevanceWeights:
        similarity = self.similarity
        if similarity is None:
            similarity = (scale or DEFAULT_SCALE).relevance_similarity
        return RelevanceWeights(similarity, self.importance, self.freshness)

    @model_validator(mode="after")
    def _domain_rules(self) -> RelevanceSettings:
        self.weights()
        return self


class RecallSettings(_Section):
    """How context candidates are found and chosen (docs/recall.md has the measurements)."""

    candidate_pool: int = Field(_RECALL.candidate_pool, ge=1, le=1000)
    # "score": cosine and BM25 each normalised, mixed by dense_share; "rank":
    # weighted reciprocal rank (docs/recall.md, "Fusion by score").
    fusion: Literal["score", "rank"] = "score"
    dense_share: float = Field(_RECALL.dense_share, ge=0, le=1)
    rrf_k: int = Field(_RECALL.rrf_k, ge=0, le=1000)
    dense_weight: float = Field(_RECALL.dense_weight, ge=0, le=100)
    lexical_weight: float = Field(_RECALL.lexical_weight, ge=0, le=100)
    neighbour_span: int = Field(_RECALL.neighbour_span, ge=0, le=10)
    neighbour_seeds: int = Field(_RECALL.neighbour_seeds, ge=0, le=100)
    neighbour_weight: float = Field(_RECALL.neighbour_weight, ge=0, le=10)
    neighbour_relevance: float = Field(_RECALL.neighbour_relevance, ge=0, le=1)
    # Unset: the embedding model's cosine for an unrelated turn (domain/similarity.py).
    neighbour_floor: float | None = Field(None, ge=-1, lt=1)
    conversation_weight: float = Field(_RECALL.conversation_weight, ge=0, le=10)
    conversation_hits: int = Field(_RECALL.conversation_hits, ge=0, le=100)
    relevance_tiebreak: float = Field(_RECALL.relevance_tiebreak, ge=0, le=100)
    reply_weight: float = Field(_RECALL.reply_weight, ge=0, le=1)
    time_weight: float = Field(_RECALL.time_weight, ge=0, le=10)
    whose_weight: float = Field(_RECALL.whose_weight, ge=0, lt=1)
    # Unset: the embedding model's share (domain/similarity.py); 0 compares the question as
    # embedded. The model's cosine lines are measured on its own share.
    query_centring: float | None = Field(None, ge=0, le=1)
    # Retrieval stages left out (composition/retrieval.py names the optional ones).
    skip_stages: tuple[str, ...] = _RECALL.skip_stages
    # Memories a big owner's lexical search scores exactly, at most, for its top ten: more is
    # closer to BM25 and slower (LexicalReading.checks; docs/recall.md, "The lexical search's
    # budget"). The storage reads it, not ranking.
    lexical_checks: int = Field(2000, ge=1, le=1_000_000)

    def tuning(self, scale: SimilarityScale | None = None) -> RecallTuning:
        values = self.model_dump()
        values.pop("lexical_checks")
        floor = values.pop("neighbour_floor")
        centring = values.pop("query_centring")
        lines = scale or DEFAULT_SCALE
        return RecallTuning(**values, neighbour_floor=_or(floor, lines.unrelated),
                            dense_floor=lines.unrelated, language_offsets=lines.language_offsets,
                            query_centring=_or(centring, lines.query_centring))

    @model_validator(mode="after")
    def _domain_rules(self) -> RecallSettings:
        self.tuning()
        return self


class DetailSettings(_Section):
    """Levels of detail, the prompt's token budget, metadata and the gate (docs/levels.md)."""

    token_budget: int = Field(_DETAIL.token_budget, ge=1, le=100_000)
    level_of_detail: bool = _DETAIL.level_of_detail
    neighbour_lines: int = Field(_DETAIL.neighbour_lines, ge=0, le=200)
    arousal_importance_gain: float = Field(_DETAIL.arousal_importance_gain, ge=0, le=1)
    gate: bool = _DETAIL.gate
    silent_limit: int = Field(_DETAIL.silent_limit, ge=0, le=1000)
    focus: bool = _DETAIL.focus
    focus_size: int = Field(_DETAIL.focus_size, ge=0, le=50)
    focus_hops: int = Field(_DETAIL.focus_hops, ge=0, le=3)
    focus_weight: float = Field(_DETAIL.focus_weight, ge=0, le=1)
    resume_recent: int = Field(_DETAIL.resume_recent, ge=0, le=1000)
    resume_share: float = Field(_DETAIL.resume_share, ge=0, le=1)

    def tuning(self) -> DetailTuning:
        return DetailTuning(**self.model_dump())


class EmbeddingSettings(_Section):
    provider: EmbeddingProvider = EmbeddingProvider.ONNX
    # docs/embeddings.md compares the two local models; the cosine lines follow the model.
    model: str = DEFAULT_EMBEDDING_MODEL
    dimension: int = Field(384, ge=1, le=16000)
    timeout_ms: int = Field(30_000, ge=1)
    ollama_url: str = "http://127.0.0.1:11434"
    max_retries: int = Field(3, ge=0, le=20)
    batch_size: int = Field(64, ge=1, le=4096)
    # The onnx provider's int8 build of its model, derived on first use (None: the user
    # cache, $XDG_CACHE_HOME/memlane; a temporary dir when that is not writable).
    model_cache_dir: Path | None = None
    # The onnx provider's intra-op threads for a query that arrives while nothing else holds
    # the model (no write, backfill or worker run); 1: every query on one thread.
    query_threads: int = Field(2, ge=1, le=16)

    def model_chosen(self) -> bool:
        """Whether `model` was set (config file, environment or code), not left at the
        default: an installation that never chose keeps the model of its stored vectors."""
        return "model" in self.model_fields_set


class MemorySettings(_Section):
    enabled: bool = True
    enable_rag: bool = True
    enable_learning: bool = True
    rag_limit: int = Field(_POLICY.rag_limit, ge=1, le=200)
    # Cosine lines. None: the configured embedding model's (domain/similarity.py keeps them
    # per model); a value set here holds for whatever model is configured.
    rag_threshold: float | None = Field(None, ge=-1, le=1)
    merge_threshold: float | None = Field(None, ge=-1, le=1)
    active_context_similarity: float | None = Field(None, ge=-1, le=1)
    min_importance: float = Field(_POLICY.min_importance, ge=0, le=1)
    # Cleanup never deletes a memory sooner than this after it was written or imported.
    cleanup_grace_days: float = Field(_POLICY.cleanup_grace_days, ge=0, le=36_500)
    decay_factor: float = Field(_POLICY.decay_factor, gt=0, le=1)
    enable_encryption: bool = True
    encryption_key_path: Path = Field(default_factory=lambda: data_home() / "memory_encryption.key")
    # -- erasure against backups (docs/security.md, "Erasure and backups") --
    erasure_journal_dir: Path = Field(default_factory=lambda: state_home() / "erasures")
    # None: `erasure_journal.key` beside the master key file.
    erasure_journal_key_path: Path | None = None
    # -- data keys (docs/security.md, "Envelope encryption") --
    data_key_cache_size: int = Field(10_000, ge=16, le=10_000_000)
    data_key_cache_s: float = Field(30.0, ge=0, le=3600)
    context_char_budget: int = Field(_POLICY.context_char_budget, ge=100)
    max_content_bytes: int = Field(_POLICY.max_content_bytes, ge=1, le=16 * 1024 * 1024)
    # Bounds of a memory's metadata (docs/security.md, "No 5xx on any input").
    max_metadata_depth: int = Field(_POLICY.max_metadata_depth, ge=1, le=64)
    max_metadata_keys: int = Field(_POLICY.max_metadata_keys, ge=1, le=100_000)
    max_metadata_bytes: int = Field(_POLICY.max_metadata_bytes, ge=2, le=16 * 1024 * 1024)
    extra_cues: dict[str, list[str]] = Field(default_factory=dict)
    relevance: RelevanceSettings = Field(default_factory=RelevanceSettings)
    recall: RecallSettings = Field(default_factory=RecallSettings)
    detail: DetailSettings = Field(default_factory=DetailSettings)
    embedding: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    extraction: ExtractionSettings = Field(default_factory=ExtractionSettings)

    def scale(self) -> SimilarityScale:
        """The cosine lines of the configured embedding model."""
        return scale_of(self.embedding.model)

    def journal_key_path(self) -> Path:
        """The erasure journal's key file: set, or beside the master key."""
        if self.erasure_journal_key_path is not None:
            return self.erasure_journal_key_path
        return self.encryption_key_path.expanduser().with_name("erasure_journal.key")

    def policy(self) -> MemoryPolicy:
        """The domain's view of these settings; cosine lines not set are the model's."""
        scale = self.scale()
        return MemoryPolicy(
            rag_limit=self.rag_limit,
            rag_threshold=_or(self.rag_threshold, scale.rag_threshold),
            merge_threshold=_or(self.merge_threshold, scale.merge_threshold),
            active_context_similarity=_or(
                self.active_context_similarity, scale.active_context
            ),
            min_importance=self.min_importance,
            cleanup_grace_days=self.cleanup_grace_days,
            decay_factor=self.decay_factor,
            context_char_budget=self.context_char_budget,
            weights=self.relevance.weights(scale),
            cues=CueBook.default(self.extra_cues),
            max_content_bytes=self.max_content_bytes,
            max_metadata_depth=self.max_metadata_depth,
            max_metadata_keys=self.max_metadata_keys,
            max_metadata_bytes=self.max_metadata_bytes,
            recall=self.recall.tuning(scale),
            detail=self.detail.tuning(),
        )

    @model_validator(mode="after")
    def _domain_rules(self) -> MemorySettings:
        self.policy()
        return self


class GraphSettings(_Section):
    """Graph memory at write time (docs/graph.md): semantic links and supersession."""

    enabled: bool = _GRAPH.enabled
    # Cosine lines. None: the configured embedding model's (domain/similarity.py).
    semantic_threshold: float | None = Field(None, ge=-1, le=1)
    max_semantic_edges: int = Field(_GRAPH.max_semantic_edges, ge=0, le=200)
    supersession_band: tuple[float, float] | None = None  # the domain checks it
    supersession_candidates: int = Field(_GRAPH.supersession_candidates, ge=0, le=50)
    # "learned": a small learned judge decides what the rules leave undecided
    # (docs/supersession.md); the composition root loads its shipped weights.
    supersession_judge: Literal["rules", "learned"] = "rules"
    expansion_seeds: int = Field(_GRAPH.expansion_seeds, ge=0, le=50)
    expansion_hops: int = Field(_GRAPH.expansion_hops, ge=1, le=3)
    expansion_limit: int = Field(_GRAPH.expansion_limit, ge=0, le=200)
    expansion_weight: float = Field(_GRAPH.expansion_weight, ge=0, le=1)
    expansion_fan_out: int = Field(_GRAPH.expansion_fan_out, ge=0, le=100)
    entity_weight: float = Field(_GRAPH.entity_weight, ge=0, le=10)
    entity_candidates: int = Field(_GRAPH.entity_candidates, ge=0, le=10_000)
    entity_max_share: float = Field(_GRAPH.entity_max_share, ge=0, le=1)
    min_edge_strength: float = Field(_GRAPH.min_edge_strength, ge=0, le=1)
    # Memories a scheduled or API sleep cycle reads at most; the next run goes on from there.
    sleep_budget: int = Field(_GRAPH.sleep_budget, ge=1, le=100_000_000)
    clusters: bool = _GRAPH.clusters
    cluster_matches: int = Field(_GRAPH.cluster_matches, ge=0, le=20)
    cluster_members: int = Field(_GRAPH.cluster_members, ge=0, le=50)
    cluster_weight: float = Field(_GRAPH.cluster_weight, ge=0, le=10)

    def tuning(self, scale: SimilarityScale | None = None) -> GraphTuning:
        lines = scale or DEFAULT_SCALE
        values = self.model_dump(exclude={"supersession_judge"})
        values["semantic_threshold"] = _or(self.semantic_threshold, lines.semantic_threshold)
        values["supersession_band"] = _or(self.supersession_band, lines.supersession_band)
        return GraphTuning(**values)

    @model_validator(mode="after")
    def _domain_rules(self) -> GraphSettings:
        self.tuning()
        return self


class FactSettings(_Section):
    """Facts read from what users say (docs/facts.md): extraction and the profile's caps."""

    enabled: bool = True
    # Older names of memory.extraction.provider, url, model and timeout_ms (still read).
    extractor: ExtractionProvider | None = None
    ollama_url: str | None = None
    model: str | None = None
    timeout_ms: int | None = Field(None, ge=1, le=600_000)
    core_per_type: int = Field(_CAPS.core_per_type, ge=0, le=100)
    secondary_per_type: int = Field(_CAPS.secondary_per_type, ge=0, le=1000)
    # The profile's lines in a prompt: what a person chose to keep, and what memlane read.
    kept_header: str = Field(_HEADERS.kept, min_length=1, max_length=200, pattern=r"^[^\n]+$")
    told_header: str = Field(_HEADERS.told, min_length=1, max_length=200, pattern=r"^[^\n]+$")

    def profile_caps(self) -> ProfileCaps:
        return ProfileCaps(self.core_per_type, self.secondary_per_type)

    def profile_headers(self) -> ProfileHeaders:
        return ProfileHeaders(self.kept_header, self.told_header)

    @model_validator(mode="after")
    def _domain_rules(self) -> FactSettings:
        self.profile_caps()
        self.profile_headers()
        return self


class DatabaseSettings(_Section):
    url: str = ""
    data_dir: Path = Field(default_factory=lambda: data_home() / "pgdata")
    pool_min_size: int = Field(2, ge=0)
    pool_max_size: int = Field(10, ge=1)
    command_timeout_ms: int = Field(10_000, ge=1)
    # The embedded server's buffer cache (PostgreSQL's shared_buffers): "auto" is an eighth
    # of the machine's memory, between 128 MB and 512 MB; or a size such as "256MB".
    shared_buffers: str = Field("auto", pattern=r"^(auto|[1-9][0-9]*(kB|MB|GB))$")

    @model_validator(mode="after")
    def _pool_sizes(self) -> DatabaseSettings:
        if self.pool_min_size > self.pool_max_size:
            raise ValueError("database.pool_min_size must not exceed pool_max_size")
        return self


class ServerSettings(_Section):
    host: str = "127.0.0.1"
    port: int = Field(8080, ge=0, le=65535)
    workers: int = Field(1, ge=1, le=64)
    ui: bool = True  # the web inspector at /ui (docs/ui.md)
    # Origins a browser may call the API from (CORS); empty: no CORS headers at all.
    cors_origins: list[str] = Field(default_factory=list)


class WorkerSettings(_Section):
    enabled: bool = True
    decay_interval: float = Field(86_400, gt=0)
    first_run_delay: float = Field(30, ge=0)
    cleanup: bool = True
    consolidate: bool = True  # the sleep cycle after decay and cleanup (docs/graph.md)
    # Seconds between the bounded runs of a sleep cycle that has memories left (the first
    # cycle after an upgrade); each run reads at most graph.sleep_budget memories.
    consolidate_resume: float = Field(60, gt=0)


class AuthSettings(_Section):
    enabled: bool = True
    # How long a process trusts a token it checked: a key revoked by another process (the
    # CLI, another replica) is refused at most this much later (docs/security.md).
    key_cache_s: float = Field(10.0, ge=0, le=300)


class ImportSettings(_Section):
    """Chat exports of other assistants (docs/import.md)."""

    max_upload_bytes: int = Field(256 * 1024 * 1024, ge=1024)


class LoggingSettings(_Section):
    level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"


class Settings(BaseSettings):
    """Every setting of memlane; precedence: init args > env > config.toml > defaults."""

    model_config = SettingsConfigDict(
        env_prefix="MEMLANE_", env_nested_delimiter="__", extra="forbid", toml_file=None
    )

    memory: MemorySettings = Field(default_factory=MemorySettings)
    graph: GraphSettings = Field(default_factory=GraphSettings)
    facts: FactSettings = Field(default_factory=FactSettings)
    database: DatabaseSettings = Field(default_factory=DatabaseSettings)
    server: ServerSettings = Field(default_factory=ServerSettings)
    worker: WorkerSettings = Field(default_factory=WorkerSettings)
    auth: AuthSettings = Field(default_factory=AuthSettings)
    imports: ImportSettings = Field(default_factory=ImportSettings)
    logging: LoggingSettings = Field(default_factory=LoggingSettings)
    proxy: ProxySettings = Field(default_factory=ProxySettings)

    @model_validator(mode="after")
    def _one_model_setting(self) -> Settings:
        legacy = {old: getattr(self.facts, old) for old in LEGACY_FACT_SETTINGS}
        self.memory.extraction = with_legacy(self.memory.extraction, legacy)
        return self

    def policy(self) -> MemoryPolicy:
        """The domain's rules: the memory section's, with the graph's tuning."""
        return replace(self.memory.policy(), graph=self.graph.tuning(self.memory.scale()))

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings]
        config_file = config_path()
        if config_file is not None:
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=config_file))
        return tuple(sources)


def config_path() -> Path | None:
    """MEMLANE_CONFIG if set (it must exist), else ./config.toml when present."""
    explicit = os.environ.get(CONFIG_ENV)
    if explicit:
        path = Path(explicit)
        if not path.is_file():
            raise ConfigurationError(f"{CONFIG_ENV}={explicit} does not name a file")
        return path
    default = Path(DEFAULT_CONFIG_FILE)
    return default if default.is_file() else None


def load_settings(**overrides: Any) -> Settings:
    """Settings from config.toml and the environment, with explicit overrides on top.

    Raises ConfigurationError, in one line naming the setting, for an unknown setting or a
    value out of its range (never a pydantic traceback)."""
    settings_errors.unknown_sections(Settings.model_fields, os.environ)
    try:
        return Settings(**overrides)
    except (ValidationError, SettingsError, tomllib.TOMLDecodeError) as exc:
        raise settings_errors.describe(exc) from None
