"""Results only the remote API has a shape for; the rest are memlane's domain types."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

from memlane.domain.facts import Fact, OpenQuestion
from memlane.domain.graph import EdgeKind
from memlane.domain.model import Memory, MemoryType
from memlane.domain.security import EventKind, SubjectKind


@dataclass(frozen=True, slots=True)
class MemoryPage:
    """One page of a listing, newest first; pass `next_cursor` back as `cursor` (None: done)."""

    items: tuple[Memory, ...]
    next_cursor: str | None


@dataclass(frozen=True, slots=True)
class FactPage:
    """One page of facts, newest first; pass `next_cursor` back as `cursor` (None: done)."""

    items: tuple[Fact, ...]
    next_cursor: str | None


@dataclass(frozen=True, slots=True)
class GraphEdge:
    """An edge as the API shows it: its strength now as `weight`."""

    source: UUID
    target: UUID
    kind: EdgeKind
    weight: float


@dataclass(frozen=True, slots=True)
class GraphNode:
    """A node of a neighbourhood. `kind` "memory": a memory, by its summary, not its full
    content. `kind` "entity": a person, place, organisation, product or pet the memories
    name (`label`, `entity_kind`; `importance` is its weight), with no memory fields."""

    id: UUID
    importance: float
    kind: str = "memory"
    memory_type: MemoryType | None = None
    summary: str | None = None
    created_at: datetime | None = None
    conversation_id: str | None = None
    superseded_by: UUID | None = None
    label: str | None = None
    entity_kind: str | None = None


@dataclass(frozen=True, slots=True)
class Neighbourhood:
    """A memory and the memories within some edges of it, with those edges."""

    nodes: tuple[GraphNode, ...]
    edges: tuple[GraphEdge, ...]


@dataclass(frozen=True, slots=True)
class AddedMessages:
    """What adding a conversation's messages stored: one memory per segment and the edges
    the write made (like the in-process value, with edges as the API shows them)."""

    memories: tuple[Memory, ...]
    edges: tuple[GraphEdge, ...]


@dataclass(frozen=True, slots=True)
class Consolidated:
    """The memory a consolidation made, its sources' ids (oldest first), whether they were
    deleted, and the edges made (the in-process value carries the sources themselves)."""

    memory: Memory
    sources: tuple[UUID, ...]
    sources_deleted: bool
    edges: tuple[GraphEdge, ...]


@dataclass(frozen=True, slots=True)
class Readiness:
    """/readyz: whether the database and the embedder both answer."""

    ready: bool
    checks: Mapping[str, bool] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TopicView:
    """One topic, derived at read time: its current facts, its commitments as next actions,
    the user's questions no later memory answered, its last activity."""

    topic: str
    count: int
    last_activity: datetime
    facts: tuple[Fact, ...] = ()
    next_actions: tuple[Fact, ...] = ()
    open_questions: tuple[OpenQuestion, ...] = ()


@dataclass(frozen=True, slots=True)
class HistoryEvent:
    """One event of the audit trail, as the history routes show it: `payload` holds old and
    new values (None for a tombstone, which keeps only id, time and actor)."""

    id: UUID
    seq: int
    subject_kind: SubjectKind
    subject_id: UUID
    kind: EventKind
    actor: str
    at: datetime
    related_id: UUID | None = None
    payload: Mapping[str, Any] | None = None
