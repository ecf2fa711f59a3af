"""The API's JSON answers decoded (msgspec) into memlane's domain types and the client's own.

Where a domain value has the answer's shape, the JSON decodes straight into it (msgspec
reads dataclasses); unknown fields are ignored, so a newer server may add fields without
breaking this client.
The server never sends the tenant (a key belongs to exactly one), so `owner.tenant` of a
remote memory is REMOTE_TENANT.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec

from memlane.domain.model import (
    Heat,
    Memory,
    MemoryContext,
    MemoryStats,
    MemoryType,
    Owner,
    PromptContext,
    RememberResult,
    ScoredMemory,
)

from .types import (
    AddedMessages,
    Consolidated,
    GraphEdge,
    HistoryEvent,
    MemoryPage,
    Neighbourhood,
)

REMOTE_TENANT = ""


class WireMemory(msgspec.Struct):
    """A memory as /v1/memories answers it, and as a line of the NDJSON export."""

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
    conversation_id: str | None = None
    tags: list[str] = msgspec.field(default_factory=list)
    metadata: dict[str, Any] = msgspec.field(default_factory=dict)
    pinned: bool = False
    embedding_model: str | None = None
    superseded_by: UUID | None = None
    valid_until: datetime | None = None

    def domain(self) -> Memory:
        return Memory(
            id=self.id, owner=Owner(REMOTE_TENANT, self.user_id), memory_type=self.memory_type,
            content=self.content, summary=self.summary, importance=self.importance,
            heat=Heat(self.base_importance, self.access_count, self.accessed_at),
            created_at=self.created_at, updated_at=self.updated_at,
            conversation_id=self.conversation_id, tags=tuple(self.tags),
            metadata=self.metadata, pinned=self.pinned, embedding_model=self.embedding_model,
            superseded_by=self.superseded_by, valid_until=self.valid_until,
        )


class WireRecordKind(msgspec.Struct):
    """Which kind of line of an export this is; a memory line has no `record` key."""

    record: str = "memory"


class WireRemembered(msgspec.Struct):
    memory: WireMemory
    merged: bool

    def domain(self) -> RememberResult:
        return RememberResult(memory=self.memory.domain(), merged=self.merged)


class WireBatch(msgspec.Struct):
    results: list[WireRemembered]


class WireLearned(msgspec.Struct):
    skipped: bool
    merged: bool = False
    memory: WireMemory | None = None


class WirePage(msgspec.Struct):
    items: list[WireMemory]
    next_cursor: str | None = None


class WireHit(msgspec.Struct):
    memory: WireMemory
    similarity: float
    relevance: float
    score: float = 0.0


class WireHits(msgspec.Struct):
    results: list[WireHit]


class WireContext(msgspec.Struct):
    memories: tuple[MemoryContext, ...]
    context: str


class WireAdded(msgspec.Struct):
    memories: list[WireMemory]
    edges: tuple[GraphEdge, ...]


class WireCount(msgspec.Struct):
    """The answer of decay and cleanup (`affected`) and of erasure (`deleted`)."""

    affected: int = 0
    deleted: int = 0


def memory(raw: bytes) -> Memory:
    return msgspec.json.decode(raw, type=WireMemory).domain()


class WireHistory(msgspec.Struct):
    events: list[HistoryEvent]


def events(raw: bytes) -> list[HistoryEvent]:
    return msgspec.json.decode(raw, type=WireHistory).events


def exported_memory(raw: bytes) -> Memory | None:
    """A memory line of an export, or None for a line of its graph (an edge, an entity)."""
    if msgspec.json.decode(raw, type=WireRecordKind).record != "memory":
        return None
    return memory(raw)


def record(raw: bytes) -> dict[str, Any]:
    found: dict[str, Any] = msgspec.json.decode(raw, type=dict[str, Any])
    return found


def remembered(raw: bytes) -> RememberResult:
    return msgspec.json.decode(raw, type=WireRemembered).domain()


def batch(raw: bytes) -> list[RememberResult]:
    return [r.domain() for r in msgspec.json.decode(raw, type=WireBatch).results]


def learned(raw: bytes) -> RememberResult | None:
    body = msgspec.json.decode(raw, type=WireLearned)
    if body.skipped or body.memory is None:
        return None
    return RememberResult(memory=body.memory.domain(), merged=body.merged)


def page(raw: bytes) -> MemoryPage:
    body = msgspec.json.decode(raw, type=WirePage)
    return MemoryPage(tuple(m.domain() for m in body.items), body.next_cursor)


def hits(raw: bytes) -> list[ScoredMemory]:
    body = msgspec.json.decode(raw, type=WireHits)
    return [ScoredMemory(h.memory.domain(), h.similarity, h.relevance, h.score)
            for h in body.results]


def prompt(raw: bytes) -> PromptContext:
    body = msgspec.json.decode(raw, type=WireContext)
    return PromptContext(memories=body.memories, text=body.context)


def stats(raw: bytes) -> MemoryStats:
    return msgspec.json.decode(raw, type=MemoryStats)


def added(raw: bytes) -> AddedMessages:
    body = msgspec.json.decode(raw, type=WireAdded)
    return AddedMessages(tuple(m.domain() for m in body.memories), body.edges)


class WireConsolidated(msgspec.Struct):
    memory: WireMemory
    sources: tuple[UUID, ...]
    sources_deleted: bool
    edges: tuple[GraphEdge, ...]


def consolidated(raw: bytes) -> Consolidated:
    body = msgspec.json.decode(raw, type=WireConsolidated)
    return Consolidated(body.memory.domain(), body.sources, body.sources_deleted, body.edges)


def neighbourhood(raw: bytes) -> Neighbourhood:
    return msgspec.json.decode(raw, type=Neighbourhood)


def edge(raw: bytes) -> GraphEdge:
    return msgspec.json.decode(raw, type=GraphEdge)


def affected(raw: bytes) -> int:
    return msgspec.json.decode(raw, type=WireCount).affected


def deleted(raw: bytes) -> int:
    return msgspec.json.decode(raw, type=WireCount).deleted
