"""What an in-process caller passes, read into domain values with one clear error each."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from enum import StrEnum
from typing import Any, TypeVar

from memlane.domain.errors import InvalidMemory
from memlane.domain.facts import FactType, InvalidFact, TimeSpan
from memlane.domain.memories import Message, Role
from memlane.domain.model import MemoryType
from memlane.domain.retrieval import ContextOptions, ContextOrder


def as_memory_type(value: str | MemoryType | None) -> MemoryType | None:
    """A MemoryType from its name ("fact") or itself; InvalidMemory names the allowed values."""
    if value is None or isinstance(value, MemoryType):
        return value
    try:
        return MemoryType(value.strip().lower())
    except ValueError:
        allowed = ", ".join(t.value for t in MemoryType)
        raise InvalidMemory(f"unknown memory type {value!r}; use one of {allowed}") from None


def as_message(value: Message | Mapping[str, Any]) -> Message:
    """A Message from itself or a mapping; InvalidMemory names what is wrong."""
    if isinstance(value, Message):
        return value
    if not isinstance(value, Mapping):
        raise InvalidMemory("a message is a mapping with role and content")
    unknown = set(value) - {"role", "content", "created_at", "name"}
    if unknown:
        raise InvalidMemory(f"unknown message fields: {', '.join(sorted(unknown))}")
    try:
        role = Role(str(value.get("role", "")).strip().lower())
    except ValueError:
        allowed = ", ".join(r.value for r in Role)
        raise InvalidMemory(f"unknown role {value.get('role')!r}; use one of {allowed}") from None
    content, created_at, name = value.get("content"), value.get("created_at"), value.get("name")
    if not isinstance(content, str):
        raise InvalidMemory("a message's content must be a string")
    if created_at is not None and not isinstance(created_at, datetime):
        raise InvalidMemory("a message's created_at must be a datetime")
    if name is not None and not isinstance(name, str):
        raise InvalidMemory("a message's name must be a string")
    return Message(role, content, created_at, name)


def context_options(
    *,
    conversation_id: str | None = None,
    include_current: bool = False,
    active_context: Sequence[str] = (),
    order: str | ContextOrder = ContextOrder.PRIORITY,
    include_superseded: bool = False,
    include_profile: bool = True,
) -> ContextOptions:
    """ContextOptions from keyword arguments; InvalidMemory names what is wrong."""
    if isinstance(active_context, str):
        raise InvalidMemory("active_context is a list of texts, not one text")
    try:
        return ContextOptions(
            conversation_id=conversation_id, include_current=include_current,
            active_context=tuple(active_context), order=ContextOrder(order),
            include_superseded=include_superseded, include_profile=include_profile,
        )
    except ValueError as error:
        raise InvalidMemory(str(error)) from None


E = TypeVar("E", bound=StrEnum)


def _as_enum(kind: type[E], value: str | E | None, what: str) -> E | None:
    if value is None or isinstance(value, kind):
        return value
    try:
        return kind(value.strip().lower())
    except ValueError:
        allowed = ", ".join(v.value for v in kind)
        raise InvalidFact(f"unknown {what} {value!r}; use one of {allowed}") from None


def as_fact_type(value: str | FactType | None) -> FactType | None:
    """A FactType from its name or itself; InvalidFact names the allowed values."""
    return _as_enum(FactType, value, "fact type")


def as_time_span(value: str | TimeSpan | None) -> TimeSpan | None:
    """A TimeSpan from its name or itself; InvalidFact names the allowed values."""
    return _as_enum(TimeSpan, value, "time span")
