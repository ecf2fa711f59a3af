"""Memory values: types, the memory itself, its sealed stored form, scored results."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Generic, TypeVar
from uuid import UUID

from memlane.domain.detail import Provenance, Tier, Tiers, Traits

Vector = Sequence[float]
T = TypeVar("T")
DEFAULT_TENANT = "default"


class MemoryType(StrEnum):
    """What kind of thing a memory is; drives decay speed, floor and injection order."""

    FACT = "fact"
    PREFERENCE = "preference"
    CORRECTION = "correction"
    TOOL_RESULT = "tool_result"
    CONTEXT = "context"

    @property
    def priority(self) -> int:
        """Injection rank: lower goes first (correction > fact > preference > context > tool)."""
        return _PRIORITY[self]


_PRIORITY = {
    MemoryType.CORRECTION: 0,
    MemoryType.FACT: 1,
    MemoryType.PREFERENCE: 2,
    MemoryType.CONTEXT: 3,
    MemoryType.TOOL_RESULT: 4,
}


@dataclass(frozen=True, slots=True)
class Owner:
    """Whose memory: every read and write is scoped by tenant and user."""

    tenant: str
    user_id: str


@dataclass(frozen=True, slots=True)
class Heat:
    """The hot, frequently rewritten part of a memory: what decay is computed from."""

    base_importance: float
    access_count: int
    accessed_at: datetime


@dataclass(frozen=True, slots=True)
class Memory:
    """A plaintext memory as the service and its callers see it."""

    id: UUID
    owner: Owner
    memory_type: MemoryType
    content: str
    summary: str
    importance: float
    heat: Heat
    created_at: datetime
    updated_at: datetime
    conversation_id: str | None = None
    tags: tuple[str, ...] = ()
    metadata: Mapping[str, Any] = field(default_factory=dict)
    pinned: bool = False
    embedding_model: str | None = None
    # Its abstract and overview (None: not built yet, a row from before tiers: derive them).
    tiers: Tiers | None = None
    traits: Traits = field(default_factory=Traits)
    # Superseded (DESIGN §9): the newer memory that replaced this one and since when; the
    # marker stays when either memory goes (the successor's own successor takes its place).
    superseded_by: UUID | None = None
    valid_until: datetime | None = None

    @property
    def current(self) -> bool:
        """Whether nothing replaced this one (a newer memory, or a fact stated directly)."""
        return self.superseded_by is None and self.valid_until is None

    @property
    def base_importance(self) -> float:
        return self.heat.base_importance

    @property
    def access_count(self) -> int:
        return self.heat.access_count

    @property
    def accessed_at(self) -> datetime:
        return self.heat.accessed_at


@dataclass(frozen=True, slots=True)
class StoredMemory:
    """A memory as storage holds it: content, summary and attributes sealed, vector in clear.

    `keywords` are the lexical index terms (keyed hashes when encryption is on).
    `importance` is the last materialised value; callers compute the exact one.
    """

    id: UUID
    owner: Owner
    memory_type: MemoryType
    content: bytes
    summary: bytes
    importance: float
    heat: Heat
    created_at: datetime
    updated_at: datetime
    conversation_id: str | None = None
    tags: tuple[str, ...] = ()
    metadata: Mapping[str, Any] = field(default_factory=dict)
    pinned: bool = False
    embedding: Vector | None = None
    embedding_model: str | None = None
    keywords: tuple[str, ...] = ()
    # Tags, metadata and conversation id sealed as one JSON document; `tags` and
    # `conversation_id` then hold keyed blind tokens and `metadata` is empty. None marks a
    # row stored before they were sealed (plaintext columns, until `memlane seal-existing`).
    attributes: bytes | None = None
    # Blind tokens of the memory's topic keys (its tags and chat title, case-blind), so one
    # topic reads through an index; None marks a row stored before they were kept.
    topic_tokens: tuple[str, ...] | None = None
    # The abstract (L0) and overview (L1), sealed like content; None: stored before tiers.
    abstract: bytes | None = None
    overview: bytes | None = None
    # Provenance, confidence, affect, domain: in clear, like the type and the heat (ranking
    # reads them); None marks a row stored before they were kept.
    traits: Traits | None = None
    superseded_by: UUID | None = None  # as Memory's
    valid_until: datetime | None = None
    # What cleanup reads besides the heat (domain/memories/cleanup.py): when the row arrived
    # here, written or imported (None: at updated_at), and whether it is imported chat history.
    arrived_at: datetime | None = None
    imported: bool = False


@dataclass(frozen=True, slots=True)
class ScoredMemory:
    """A memory with how well it matched a query, its combined relevance, and `score`: the
    fused score that orders search results (a superseded memory's demotion included)."""

    memory: Memory
    similarity: float
    relevance: float
    score: float = 0.0


class ContextRole(StrEnum):
    """How a context memory was found."""

    ENTRY = "entry"  # it matched the query
    ENTITY = "entity"  # it names what the query names, though its meaning alone was too far
    CHAIN = "chain"  # next to an entry in its conversation
    SEMANTIC = "semantic"  # linked to an entry by meaning
    ACTIVATION = "activation"  # reached through the graph further out
    FOCUS = "focus"  # the focus of the user's last conversation on this topic (resumed)


@dataclass(frozen=True, slots=True)
class MemoryContext:
    """One memory handed to a host chat service as prompt context."""

    id: UUID
    content: str
    memory_type: MemoryType
    relevance: float
    similarity: float
    importance: float
    created_at: datetime
    tags: tuple[str, ...] = ()
    metadata: Mapping[str, Any] = field(default_factory=dict)
    role: ContextRole = ContextRole.ENTRY
    conversation_id: str | None = None
    # The newer memory that replaced this one (only shown when asked about the past, or
    # with include_superseded).
    superseded_by: UUID | None = None


@dataclass(frozen=True, slots=True)
class PromptContext:
    """The memories chosen for a query and the rendered block to put in a prompt."""

    memories: tuple[MemoryContext, ...]
    text: str
    # By level of detail: every memory the block shows and at which tier (a hint line is
    # L0), so a host can expand any of them (POST /v1/context/expand).
    levels: tuple[tuple[UUID, Tier], ...] = ()


@dataclass(frozen=True, slots=True)
class MemoryStats:
    """Counts for one user (or everyone, for an admin)."""

    total: int
    by_type: Mapping[str, int]
    with_embeddings: int
    avg_importance: float


@dataclass(frozen=True, slots=True)
class MemoryFilter:
    """Optional filters for listing memories."""

    memory_type: MemoryType | None = None
    tag: str | None = None
    conversation_id: str | None = None
    min_importance: float | None = None
    current: bool | None = None  # True: not superseded; False: superseded; None: both


@dataclass(frozen=True, slots=True)
class Cursor:
    """Keyset position in the (created_at desc, id desc) order."""

    created_at: datetime
    id: UUID


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of results and where the next one starts (None at the end)."""

    items: Sequence[T]
    next_cursor: Cursor | None


@dataclass(frozen=True, slots=True)
class DenseHit:
    """A stored memory found by vector search, with cosine similarity in [-1, 1]."""

    stored: StoredMemory
    similarity: float


@dataclass(frozen=True, slots=True)
class Nearby:
    """What the write probe finds for one new memory: the nearest stored memory in full (what
    dedup merges into) and the owner's nearest memories as (id, cosine), best first (what the
    graph links to)."""

    best: DenseHit | None
    near: tuple[tuple[UUID, float], ...] = ()


@dataclass(frozen=True, slots=True)
class SearchCandidate:
    """A memory found by a search, without its sealed content or embedding: what ranking reads.

    `score` is the search's own measure: cosine to the query for dense search and
    neighbours (0.0 without a query vector or an embedding), BM25 for lexical search.
    """

    id: UUID
    score: float
    memory_type: MemoryType
    heat: Heat
    created_at: datetime
    conversation_id: str | None = None
    superseded_by: UUID | None = None  # the newer memory that replaced it
    valid_until: datetime | None = None  # set: something replaced it (a memory or a fact)
    traits: Traits | None = None

    @classmethod
    def of(cls, stored: StoredMemory, score: float) -> SearchCandidate:
        return cls(
            stored.id, score, stored.memory_type, stored.heat, stored.created_at,
            stored.conversation_id, stored.superseded_by, stored.valid_until, stored.traits,
        )


@dataclass(frozen=True, slots=True)
class NewMemory:
    """What a caller asks to remember; type and importance are inferred when absent."""

    content: str
    memory_type: MemoryType | None = None
    importance: float | None = None
    conversation_id: str | None = None
    tags: tuple[str, ...] = ()
    metadata: Mapping[str, Any] = field(default_factory=dict)
    pinned: bool = False
    created_at: datetime | None = None
    # None: stated, or extracted when it is a conversation's segment or learned.
    provenance: Provenance | None = None
    # memlane chose memory_type from the words (learn, conversation segments), not the
    # caller: a statement found to replace another may still become a correction.
    inferred_type: bool = False


@dataclass(frozen=True, slots=True)
class MemoryPatch:
    """A partial edit; None leaves a field as it is. Setting importance restarts its decay."""

    content: str | None = None
    memory_type: MemoryType | None = None
    importance: float | None = None
    tags: tuple[str, ...] | None = None
    pinned: bool | None = None
    metadata: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class RememberResult:
    """The stored memory, whether it was merged into an existing one, and the edges its
    write made (semantic links, supersessions) as (target id, kind name, weight)."""

    memory: Memory
    merged: bool
    edges: tuple[tuple[UUID, str, float], ...] = ()
    # A content longer than the detail tier is stored as chained parts: `memory` holds the
    # first, these the rest in order.
    parts: tuple[Memory, ...] = ()
