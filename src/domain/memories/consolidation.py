"""Consolidation: several memories condensed into one, and what the new one inherits."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from memlane.domain.errors import InvalidMemory
from memlane.domain.graph import Edge, EdgeKind
from memlane.domain.model import Memory, MemoryType, NewMemory

MIN_SOURCES = 2
MAX_SOURCES = 100  # one request, one transaction: a bounded set of rows locked and rewritten
SEPARATOR = "\n\n"  # between the sources' contents, when the caller gives none
LINK_WEIGHT = 1.0  # the new memory tells the sources' story: the strongest narrative link


@dataclass(frozen=True, slots=True)
class Consolidation:
    """What to condense: the sources' ids, and optionally the new memory's content and type.

    `delete_sources`: delete the sources instead of keeping them as superseded history."""

    sources: tuple[UUID, ...]
    content: str | None = None
    memory_type: MemoryType | None = None
    delete_sources: bool = False


def check_sources(sources: Sequence[UUID]) -> tuple[UUID, ...]:
    """The distinct ids in the order given; InvalidMemory for fewer than two or too many."""
    distinct = tuple(dict.fromkeys(sources))
    if len(distinct) < MIN_SOURCES:
        raise InvalidMemory(f"a consolidation needs at least {MIN_SOURCES} distinct sources")
    if len(distinct) > MAX_SOURCES:
        raise InvalidMemory(f"a consolidation takes at most {MAX_SOURCES} sources")
    return distinct


def in_time_order(sources: Sequence[Memory]) -> list[Memory]:
    return sorted(sources, key=lambda m: (m.created_at, str(m.id)))


def condensed(request: Consolidation, sources: Sequence[Memory]) -> NewMemory:
    """The new memory: the content given, else the sources' contents in time order; the type
    given, else the one most sources have (ties: the newest's); the highest base importance,
    every tag (first seen first), pinned if any source was, the conversation all share."""
    ordered = in_time_order(sources)
    content = request.content.strip() if request.content and request.content.strip() \
        else SEPARATOR.join(m.content for m in ordered)
    counts = Counter(m.memory_type for m in ordered)
    best = max(counts.values())
    memory_type = request.memory_type or next(
        m.memory_type for m in reversed(ordered) if counts[m.memory_type] == best)
    conversations = {m.conversation_id for m in ordered}
    return NewMemory(
        content=content,
        memory_type=memory_type,
        importance=max(m.base_importance for m in ordered),
        conversation_id=conversations.pop() if len(conversations) == 1 else None,
        tags=tuple(dict.fromkeys(t for m in ordered for t in m.tags)),
        pinned=any(m.pinned for m in ordered),
    )


def links(into: UUID, sources: Sequence[UUID], now: datetime) -> list[Edge]:
    """new -> each source kept: `narrative` (one story) and `supersedes` (context prefers the
    new memory and shows a source only as history, with valid_until)."""
    kinds = (EdgeKind.NARRATIVE, EdgeKind.SUPERSEDES)
    return [Edge(into, s, kind, LINK_WEIGHT, now, now) for s in sources for kind in kinds]
