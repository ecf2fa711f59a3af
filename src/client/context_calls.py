"""Prompt context, conversations and the graph as Calls: /v1/context,
/v1/conversations/{id}/messages, /v1/imports (chat exports become conversations),
/v1/memories/{id}/graph and /edges."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict
from datetime import datetime
from functools import wraps
from pathlib import Path
from typing import Any, Literal, ParamSpec
from uuid import UUID

import msgspec

from memlane.domain.graph import EdgeKind
from memlane.domain.memories import Message
from memlane.domain.model import MemoryContext, MemoryType, PromptContext
from memlane.domain.portability import ImportSummary
from memlane.domain.retrieval import ContextOrder

from . import wire
from .call import Call, body, nothing, query, segment, uuid_of
from .types import AddedMessages, Consolidated, GraphEdge, Neighbourhood

P = ParamSpec("P")


def prompt_context(
    user_id: str | None,
    query: str,
    limit: int | None = None,
    *,
    conversation_id: str | None = None,
    include_current: bool = False,
    active_context: Sequence[str] = (),
    order: str | ContextOrder = ContextOrder.PRIORITY,
    include_superseded: bool = False,
    include_profile: bool = True,
    asked_at: datetime | None = None,
) -> Call[PromptContext]:
    """The best memories for `query` and the rendered prompt block; they count as accessed.

    Options as in-process: leave out the current conversation (unless `include_current`),
    memories nearly repeating `active_context`, and replaced ones (unless
    `include_superseded`); `order` "priority" or "timeline"; the "do not forget" profile
    opens the block unless `include_profile` is False; `asked_at` (with its time zone): when
    the question is asked, for the times it points at ("four weeks ago"; default now)."""
    if isinstance(active_context, str):
        active_context = [active_context]
    payload = body(
        user_id=user_id, query=query, limit=limit, conversation_id=conversation_id,
        include_current=include_current or None, active_context=list(active_context) or None,
        order=str(getattr(order, "value", order)), include_superseded=include_superseded or None,
        include_profile=None if include_profile else False,
        asked_at=None if asked_at is None else asked_at.isoformat(),
    )
    return Call("POST", "/v1/context", wire.prompt, body=payload)


def memories_only(
    build: Callable[P, Call[PromptContext]],
) -> Callable[P, Call[list[MemoryContext]]]:
    """The same call answering only the memories (retrieve_context from prompt_context)."""

    @wraps(build)  # the same signature for help() and editors
    def memories(*args: P.args, **kwargs: P.kwargs) -> Call[list[MemoryContext]]:
        call = build(*args, **kwargs)
        return Call(call.method, call.path, _memories, params=call.params, body=call.body)

    memories.__name__ = "retrieve_context"
    memories.__doc__ = "The memories of `prompt_context` for `query`, without the rendered block."
    return memories


def _memories(raw: bytes) -> list[MemoryContext]:
    return list(wire.prompt(raw).memories)


retrieve_context = memories_only(prompt_context)


def message(value: Message | Mapping[str, Any]) -> Mapping[str, Any]:
    """A message as the API takes it (a mapping is sent as it is; the server checks it)."""
    if not isinstance(value, Message):
        return value
    return {k: v for k, v in asdict(value).items() if v is not None}


def add_messages(
    *,
    user_id: str | None = None,
    conversation_id: str,
    messages: Sequence[Message | Mapping[str, Any]],
) -> Call[AddedMessages]:
    """Store a conversation's messages: each user message with the reply after it becomes
    one memory, chained to its neighbours."""
    payload = body(messages=[message(m) for m in messages], user_id=user_id)
    return Call("POST", f"/v1/conversations/{segment(conversation_id)}/messages",
                wire.added, body=payload)


def import_chats(
    *,
    user_id: str | None = None,
    export: bytes | Path,
    export_format: Literal["chatgpt", "claude"],
    titles: bool = True,
) -> Call[ImportSummary]:
    """Import another assistant's chat export (conversations.json, or the zip as downloaded):
    each chat a conversation, each exchange one memory; importing it again adds nothing.
    The server checks the whole file first (InvalidMemory naming where it is malformed)."""
    content = export.read_bytes() if isinstance(export, Path) else export
    params = query(user_id=user_id, format=export_format, titles=titles)
    return Call("POST", "/v1/imports", _summary, params=params, body=content,
                content_type="application/octet-stream")


def _summary(raw: bytes) -> ImportSummary:
    return msgspec.json.decode(raw, type=ImportSummary)


def neighbourhood(
    *,
    user_id: str | None = None,
    memory_id: UUID | str,
    depth: int = 1,
    kinds: Sequence[str | EdgeKind] | None = None,
) -> Call[Neighbourhood]:
    """The memory and the memories within `depth` (1..3) edges of it, with those edges."""
    params = query(user_id=user_id, depth=depth, kinds=kinds or None)
    return Call("GET", f"/v1/memories/{uuid_of(memory_id)}/graph", wire.neighbourhood,
                params=params)


def connect(
    *,
    user_id: str | None = None,
    memory_id: UUID | str,
    target: UUID | str,
    kind: str | EdgeKind,
    weight: float | None = None,
) -> Call[GraphEdge]:
    """State a causal, temporal or narrative edge from `memory_id` to `target`."""
    payload = body(target=uuid_of(target), kind=str(getattr(kind, "value", kind)),
                   weight=weight, user_id=user_id)
    return Call("POST", f"/v1/memories/{uuid_of(memory_id)}/edges", wire.edge, body=payload)


def consolidate(
    *,
    user_id: str | None = None,
    sources: Sequence[UUID | str],
    content: str | None = None,
    memory_type: str | MemoryType | None = None,
    delete_sources: bool = False,
) -> Call[Consolidated]:
    """One new memory in place of the sources (kept as superseded history, or deleted)."""
    payload = body(sources=[uuid_of(s) for s in sources], content=content,
                   memory_type=None if memory_type is None
                   else str(getattr(memory_type, "value", memory_type)),
                   delete_sources=delete_sources, user_id=user_id)
    return Call("POST", "/v1/memories/consolidate", wire.consolidated, body=payload)


def disconnect(
    *,
    user_id: str | None = None,
    memory_id: UUID | str,
    target: UUID | str,
    kind: str | EdgeKind | None = None,
) -> Call[None]:
    """Remove the edge(s) from `memory_id` to `target`; MemoryNotFound when there is none."""
    return Call("DELETE", f"/v1/memories/{uuid_of(memory_id)}/edges/{uuid_of(target)}",
                nothing, params=query(user_id=user_id, kind=kind))
