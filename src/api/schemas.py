"""Request and response bodies of the HTTP API (msgspec structs, separate from domain types).

Every request struct forbids unknown fields, so a typo is a 4xx, never silently ignored.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal
from uuid import UUID

import msgspec
from msgspec import Meta

from memlane.api.config import MAX_BATCH_ITEMS
from memlane.domain.model import ContextRole, MemoryType
from memlane.domain.policy import MAX_TAG_CHARS, MAX_TAGS

UserId = Annotated[str, Meta(min_length=1, max_length=200, pattern=r"^\S(.*\S)?$")]
Tag = Annotated[str, Meta(min_length=1, max_length=MAX_TAG_CHARS)]
Tags = Annotated[list[Tag], Meta(max_length=MAX_TAGS)]
# Litestar leaves a zero bound out of the OpenAPI document; `extra` puts it back.
ZERO_MINIMUM: dict[str, Any] = {"extra": {"minimum": 0.0}}
Importance = Annotated[float, Meta(ge=0.0, le=1.0, extra_json_schema=ZERO_MINIMUM)]
Content = Annotated[str, Meta(min_length=1)]
ConversationId = Annotated[str, Meta(min_length=1, max_length=200)]
Query = Annotated[str, Meta(min_length=1, max_length=4096)]


class _In(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Base of request bodies: unknown fields are rejected."""


class MemoryItemIn(_In):
    """One memory to store. Type and importance are inferred from the content when absent."""

    content: Content
    memory_type: MemoryType | None = None
    importance: Importance | None = None
    conversation_id: ConversationId | None = None
    tags: Tags = msgspec.field(default_factory=list)
    metadata: dict[str, Any] = msgspec.field(default_factory=dict)
    pinned: bool = False


class MemoryIn(MemoryItemIn, kw_only=True):
    """A memory to store; `user_id` is required for keys not pinned to a user."""

    user_id: UserId | None = None


class BatchIn(_In):
    """Several memories of one user, embedded in one batch."""

    memories: Annotated[list[MemoryItemIn], Meta(min_length=1, max_length=MAX_BATCH_ITEMS)]
    user_id: UserId | None = None


class LearnIn(_In):
    """A question/answer exchange to learn from (skipped when either side is too short)."""

    question: Content
    answer: Content
    conversation_id: ConversationId | None = None
    tags: Tags = msgspec.field(default_factory=list)
    metadata: dict[str, Any] = msgspec.field(default_factory=dict)
    user_id: UserId | None = None


class ContextIn(_In):
    """A query to fetch prompt context for."""

    query: Query
    limit: Annotated[int, Meta(ge=1, le=50)] | None = None
    user_id: UserId | None = None
    # Memories another one replaced are left out unless this is true or the query asks
    # about the past ("used to", "früher"); shown, they carry superseded_by.
    include_superseded: bool = False
    # The current session: its memories are already in the prompt (left out unless
    # include_current).
    conversation_id: ConversationId | None = None
    include_current: bool = False
    # Texts already in the prompt: memories nearly the same (cosine >= 0.85) are left out.
    active_context: Annotated[
        list[Annotated[str, Meta(min_length=1, max_length=4096)]], Meta(max_length=20)
    ] = msgspec.field(default_factory=list)
    order: Literal["priority", "timeline"] = "priority"
    # The rendered block opens with the user's core facts (GET /v1/profile's core tier).
    include_profile: bool = True
    # The block's hard budget, in the embedding model's tokens (default: the configured
    # memory.detail.token_budget, 800), when memory.detail.level_of_detail is on (it is off
    # by default: whole lines within the character budget, docs/levels.md).
    token_budget: Annotated[int, Meta(ge=1, le=100_000)] | None = None
    # When the question is asked (RFC 3339 with its offset; default now): the time its words
    # point at ("four weeks ago", "letzte Woche") is read against it (docs/recall.md).
    asked_at: Annotated[datetime, Meta(tz=True)] | None = None


class PatchIn(_In):
    """A partial edit: fields left out (or null) stay as they are."""

    content: Content | None = None
    memory_type: MemoryType | None = None
    importance: Importance | None = None
    tags: Tags | None = None
    pinned: bool | None = None
    metadata: dict[str, Any] | None = None


class MemoryOut(msgspec.Struct, kw_only=True):
    """A memory as the API shows it (decrypted content; importance computed now, to 4
    decimals). `current` is false once something replaced it: `superseded_by` names the
    memory that did (null when a fact stated directly did) and `valid_until` since when."""

    id: UUID
    user_id: str
    memory_type: MemoryType
    content: str
    summary: str
    importance: float
    base_importance: float
    access_count: int
    accessed_at: datetime
    created_at: datetime
    updated_at: datetime
    conversation_id: str | None
    tags: list[str]
    metadata: dict[str, Any]
    pinned: bool
    embedding_model: str | None
    # Levels of detail (docs/levels.md): which tier `content` holds, and the abstract.
    tier: Literal["L0", "L1", "L2"] = "L2"
    abstract: str = ""
    # A memory's metadata (docs/levels.md): how it came to be and how sure memlane is of
    # it, its emotional charge (null: not read) and its territory.
    provenance: Literal["stated", "extracted", "replied", "inferred", "consolidated"] = "stated"
    confidence: float = 1.0
    valence: float | None = None
    arousal: float | None = None
    domain: Literal["relationship", "project", "technical", "personal"] = "personal"
    current: bool = True
    superseded_by: UUID | None = None
    valid_until: datetime | None = None


class RememberOut(msgspec.Struct, kw_only=True):
    """The stored memory, and whether it was merged into an existing near-duplicate. A text
    longer than 5,000 characters is stored as chained parts: `memory` is the first, `parts`
    the ids of the rest in order."""

    memory: MemoryOut
    merged: bool
    parts: list[UUID] = msgspec.field(default_factory=list)


class LearnOut(msgspec.Struct, kw_only=True):
    """What learning did: skipped (too short), or stored/merged a memory."""

    skipped: bool
    merged: bool = False
    memory: MemoryOut | None = None


class BatchOut(msgspec.Struct, kw_only=True):
    results: list[RememberOut]


class PageOut(msgspec.Struct, kw_only=True):
    """One page, newest first; pass `next_cursor` back as `cursor` for the next (null: done)."""

    items: list[MemoryOut]
    next_cursor: str | None


SCORE_DOC = (
    "What orders the results, best first: the fused match (the cosine and the keyword score "
    "fused by score, or by rank with memory.recall.fusion = \"rank\", plus the name and fact "
    "rankings' reciprocal ranks, raised by the conversation prior); "
    "a superseded memory keeps half of it, and less than what replaced it when that is found "
    "too (docs/recall.md). Not rounded, so no two results tie by accident."
)


class SearchHitOut(msgspec.Struct, kw_only=True):
    """One result: the memory (`superseded_by` set when a newer one replaced it), its cosine
    to the query, DESIGN's relevance, and the `score` that orders the results."""

    memory: MemoryOut
    similarity: Annotated[float, Meta(description=(
        "Cosine to the query as memlane compares it, to 4 decimals: under a model with "
        "centring (multilingual-e5-small) to the centred question (docs/recall.md, "
        "\"Centring the question\"), so its scale is the model's."))]
    relevance: Annotated[float, Meta(description=(
        "similarity x the model's weight (all-MiniLM-L6-v2 0.5, multilingual-e5-small 1.32) "
        "+ 0.2 importance + 0.3 freshness, to 4 decimals."))]
    score: Annotated[float, Meta(description=SCORE_DOC)]


class SearchOut(msgspec.Struct, kw_only=True):
    results: list[SearchHitOut]


class ContextMemoryOut(msgspec.Struct, kw_only=True):
    id: UUID
    content: str
    memory_type: MemoryType
    relevance: float
    similarity: float
    importance: float
    created_at: datetime
    tags: list[str]
    metadata: dict[str, Any]
    role: ContextRole = ContextRole.ENTRY
    conversation_id: str | None = None
    superseded_by: UUID | None = None


class LevelOut(msgspec.Struct, kw_only=True):
    """A memory the block shows, and at which tier (a hint line is L0)."""

    id: UUID
    tier: Literal["L0", "L1", "L2"]


class ContextOut(msgspec.Struct, kw_only=True):
    """The chosen memories (type-priority order) and the rendered prompt block; `levels`:
    every memory the block shows by level of detail, each expandable
    (POST /v1/context/expand); empty while memory.detail.level_of_detail is off."""

    memories: list[ContextMemoryOut]
    context: str
    levels: list[LevelOut] = msgspec.field(default_factory=list)


class ExpandIn(_In):
    """Memories to show at a deeper tier (progressive disclosure); counts as access."""

    memory_ids: Annotated[list[UUID], Meta(min_length=1, max_length=50)]
    tier: Literal["L0", "L1", "L2"] = "L2"
    user_id: UserId | None = None


class ExpandedOut(msgspec.Struct, kw_only=True):
    """The memories at the tier asked for, in the order asked (one not found is left out)."""

    memories: list[MemoryOut]


class StatsOut(msgspec.Struct, kw_only=True):
    total: int
    by_type: dict[str, int]
    with_embeddings: int
    avg_importance: float


class MaintenanceOut(msgspec.Struct, kw_only=True):
    """How many memories a maintenance run touched, and over whom (`user`, `tenant`, `all`)."""

    affected: int
    scope: str


class DeletedOut(msgspec.Struct, kw_only=True):
    deleted: int

