"""The /v1/memories routes as Calls: store, learn, search, list, read, edit, delete, export,
stats and erasure. Names and arguments follow the in-process `TenantMemory`; `user_id` may be
left out with a key pinned to a user."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from memlane.domain.errors import InvalidMemory
from memlane.domain.model import (
    Memory,
    MemoryFilter,
    MemoryStats,
    MemoryType,
    NewMemory,
    RememberResult,
    ScoredMemory,
)

from . import wire
from .call import Call, body, nothing, query as query_params, uuid_of
from .types import HistoryEvent, MemoryPage

MEMORIES = "/v1/memories"
# `current` as the routes take it: True, False, or None for both (the default of memories).
CURRENT_VALUES: dict[bool | None, str] = {True: "true", False: "false", None: "all"}


def type_name(value: str | MemoryType | None) -> str | None:
    """A memory type as the API spells it ("fact"); the server names the allowed values."""
    return None if value is None else str(getattr(value, "value", value)).strip().lower()


def item(new: NewMemory) -> dict[str, Any]:
    """One memory to store as the API takes it."""
    if new.created_at is not None:
        raise InvalidMemory("created_at cannot be set over HTTP (use `memlane import`)")
    return {
        "content": new.content, "memory_type": type_name(new.memory_type),
        "importance": new.importance, "conversation_id": new.conversation_id,
        "tags": list(new.tags), "metadata": dict(new.metadata), "pinned": new.pinned,
    }


def remember(
    *,
    user_id: str | None = None,
    content: str,
    memory_type: str | MemoryType | None = None,
    importance: float | None = None,
    conversation_id: str | None = None,
    tags: Sequence[str] = (),
    metadata: Mapping[str, Any] | None = None,
    pinned: bool = False,
) -> Call[Memory]:
    """Store (or merge into a near-duplicate) a memory and return it as stored."""
    payload = body(content=content, memory_type=type_name(memory_type), importance=importance,
                   conversation_id=conversation_id, tags=list(tags),
                   metadata=dict(metadata or {}), pinned=pinned, user_id=user_id)
    return Call("POST", MEMORIES, lambda raw: wire.remembered(raw).memory, body=payload)


def remember_many(
    *, user_id: str | None = None, memories: Sequence[NewMemory]
) -> Call[list[RememberResult]]:
    """Store several memories with one batched embedding; results in the given order."""
    items = [{k: v for k, v in item(m).items() if v is not None} for m in memories]
    return Call("POST", MEMORIES + "/batch", wire.batch,
                body=body(memories=items, user_id=user_id))


def learn(
    *,
    user_id: str | None = None,
    question: str,
    answer: str,
    conversation_id: str | None = None,
    tags: Sequence[str] = (),
    metadata: Mapping[str, Any] | None = None,
) -> Call[RememberResult | None]:
    """Learn from a question/answer pair; None when it is too short to keep."""
    payload = body(question=question, answer=answer, conversation_id=conversation_id,
                   tags=list(tags), metadata=dict(metadata or {}), user_id=user_id)
    return Call("POST", MEMORIES + "/learn", wire.learned, body=payload)


def search(
    *, user_id: str | None = None, query: str, limit: int = 10,
    min_similarity: float | None = None, current: bool | None = None,
    asked_at: datetime | None = None,
) -> Call[list[ScoredMemory]]:
    """Memories that match `query`, best first by `score`, with similarity and relevance; a
    superseded one carries `superseded_by` (`current` True leaves it out, False keeps only
    such; None, the default, both). `asked_at` (with its time zone): when the question is
    asked, for the times it points at ("four weeks ago"; default now)."""
    params = _query(user_id, q=query, limit=limit, min_similarity=min_similarity,
                    current=CURRENT_VALUES[current],
                    asked_at=None if asked_at is None else asked_at.isoformat())
    return Call("GET", MEMORIES + "/search", wire.hits, params=params)


def get(*, user_id: str | None = None, memory_id: UUID | str) -> Call[Memory]:
    """One memory; another user's is MemoryNotFound."""
    return Call("GET", f"{MEMORIES}/{uuid_of(memory_id)}", wire.memory, params=_query(user_id))


def update(
    *,
    user_id: str | None = None,
    memory_id: UUID | str,
    content: str | None = None,
    memory_type: str | MemoryType | None = None,
    importance: float | None = None,
    tags: Sequence[str] | None = None,
    pinned: bool | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> Call[Memory]:
    """Edit a memory; arguments left None stay as they are."""
    payload = body(content=content, memory_type=type_name(memory_type), importance=importance,
                   tags=None if tags is None else list(tags), pinned=pinned,
                   metadata=None if metadata is None else dict(metadata))
    return Call("PATCH", f"{MEMORIES}/{uuid_of(memory_id)}", wire.memory,
                params=_query(user_id), body=payload)


def delete(*, user_id: str | None = None, memory_id: UUID | str) -> Call[None]:
    """Delete one memory; MemoryNotFound when it is not the user's."""
    return Call("DELETE", f"{MEMORIES}/{uuid_of(memory_id)}", nothing, params=_query(user_id))


def delete_all(*, user_id: str | None = None) -> Call[int]:
    """Erase every memory of the user (cannot be undone); the number erased."""
    params = query_params(confirm=True, user_id=user_id)
    return Call("DELETE", MEMORIES, wire.deleted, params=params)


def export(*, user_id: str | None = None) -> Call[Memory | None]:
    """The user's memories, oldest first, one per NDJSON line as it streams; the lines of
    the graph after them (edges, entities) decode to None."""
    return Call("GET", MEMORIES + "/export", wire.exported_memory, params=_query(user_id))


def export_records(*, user_id: str | None = None) -> Call[dict[str, Any]]:
    """Every line of the export as its JSON object: memories, then the edges and entities
    between them (the portable form `memlane import` reads back)."""
    return Call("GET", MEMORIES + "/export", wire.record, params=_query(user_id))


def history(*, user_id: str | None = None, memory_id: UUID | str) -> Call[list[HistoryEvent]]:
    """Every change of the memory and of its stated edges, oldest first, after its deletion
    too; MemoryNotFound when the owner has neither the memory nor any event of it."""
    return Call("GET", f"{MEMORIES}/{uuid_of(memory_id)}/history", wire.events,
                params=_query(user_id))


def stats(*, user_id: str | None = None) -> Call[MemoryStats]:
    """Counts for the user (or the whole installation, for an admin key naming nobody)."""
    return Call("GET", MEMORIES + "/stats", wire.stats, params=_query(user_id))


def list_page(
    *,
    user_id: str | None = None,
    filters: MemoryFilter | None = None,
    cursor: str | None = None,
    limit: int = 50,
) -> Call[MemoryPage]:
    """One page of the user's memories, newest first; `cursor` is the previous next_cursor."""
    chosen = filters or MemoryFilter()
    params = query_params(
        user_id=user_id, memory_type=type_name(chosen.memory_type), tag=chosen.tag,
        conversation_id=chosen.conversation_id, min_importance=chosen.min_importance,
        current=CURRENT_VALUES[chosen.current], cursor=cursor, limit=limit,
    )
    return Call("GET", MEMORIES, wire.page, params=params)


def _query(user_id: str | None = None, **values: Any) -> dict[str, str]:
    return query_params(user_id=user_id, **values)
