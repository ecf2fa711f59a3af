"""Request and response bodies of the conversation and graph routes."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal
from uuid import UUID

import msgspec
from msgspec import Meta

from memlane.api.schemas import ZERO_MINIMUM, Content, MemoryOut, UserId
from memlane.domain.memories import MAX_MESSAGES
from memlane.domain.model import MemoryType

EdgeKindName = Literal[
    "chain", "semantic", "temporal", "causal", "entity", "contradiction", "supersedes",
    "narrative",
]


class MessageIn(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """One chat message; `created_at` must carry a time zone."""

    role: Literal["user", "assistant", "system", "tool"]
    content: Content
    created_at: datetime | None = None
    name: Annotated[str, Meta(min_length=1, max_length=200)] | None = None


class MessagesIn(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Messages of one conversation, in order (mem0's `add(messages)`)."""

    messages: Annotated[list[MessageIn], Meta(min_length=1, max_length=MAX_MESSAGES)]
    user_id: UserId | None = None


class EdgeOut(msgspec.Struct, kw_only=True):
    source: UUID
    target: UUID
    kind: EdgeKindName
    weight: float


class AddedMessagesOut(msgspec.Struct, kw_only=True):
    """One memory per segment, in conversation order, and the edges the write made."""

    memories: list[MemoryOut]
    edges: list[EdgeOut]


class GraphNodeOut(msgspec.Struct, kw_only=True):
    """A node. `kind: "memory"`: a memory, by its summary, not its full content.
    `kind: "entity"`: a person, place, organisation, product or pet the memories in view
    name (`label`, `entity_kind`; `importance` is its weight), joined to them by `entity`
    edges memory -> entity; it has no memory fields."""

    id: UUID
    kind: Literal["memory", "entity"] = "memory"
    memory_type: str | None = None
    summary: str | None = None
    importance: float
    created_at: datetime | None = None
    conversation_id: str | None = None
    superseded_by: UUID | None = None
    label: str | None = None
    entity_kind: Literal["person", "place", "organisation", "product", "pet"] | None = None


class GraphOut(msgspec.Struct, kw_only=True):
    """A memory's neighbourhood; edge weights are their strengths now."""

    nodes: list[GraphNodeOut]
    edges: list[EdgeOut]


class EdgeIn(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """An edge stated by the caller, from the memory in the path to `target`."""

    target: UUID
    kind: Literal["causal", "temporal", "narrative"]
    weight: Annotated[float, Meta(ge=0.0, le=1.0, extra_json_schema=ZERO_MINIMUM)] | None = None
    user_id: UserId | None = None


class ConsolidateIn(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """Memories to condense into one; without `content` the new one joins theirs in time
    order. `delete_sources` deletes them instead of keeping them as superseded history."""

    sources: Annotated[list[UUID], Meta(min_length=2, max_length=100)]
    content: Content | None = None
    memory_type: MemoryType | None = None
    delete_sources: bool = False
    user_id: UserId | None = None


class ConsolidatedOut(msgspec.Struct, kw_only=True):
    """The new memory, the sources (oldest first), whether they were deleted, the edges made."""

    memory: MemoryOut
    sources: list[UUID]
    sources_deleted: bool
    edges: list[EdgeOut]


class SleepOut(msgspec.Struct, kw_only=True):
    """What a sleep cycle did, over whom (`user`, `tenant`, `all`): memories read since the
    watermarks, consolidated memories made and the sources they replace, narrative links
    woven, faded links pruned, groups left unmerged, cluster summaries made or refreshed,
    and the memories left for the next call (the run stopped at `graph.sleep_budget`)."""

    scope: str
    scanned: int
    merged: int
    sources: int
    woven: int
    pruned: int
    skipped: int
    clusters: int
    left: int
