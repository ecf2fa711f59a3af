"""The portable (export/import) form of a memory: one JSON object per line."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from memlane.domain.errors import InvalidMemory
from memlane.domain.model import Heat, Memory, MemoryType, NewMemory

FORMAT_VERSION = 1


def memory_to_record(memory: Memory) -> dict[str, Any]:
    """Every user-visible field of a memory, JSON-ready (plaintext: the user's own data)."""
    return {
        "format": FORMAT_VERSION,
        "id": str(memory.id),
        "user_id": memory.owner.user_id,
        "memory_type": memory.memory_type.value,
        "content": memory.content,
        "summary": memory.summary,
        "importance": memory.importance,
        "base_importance": memory.base_importance,
        "access_count": memory.access_count,
        "accessed_at": memory.accessed_at.isoformat(),
        "created_at": memory.created_at.isoformat(),
        "updated_at": memory.updated_at.isoformat(),
        "conversation_id": memory.conversation_id,
        "tags": list(memory.tags),
        "metadata": dict(memory.metadata),
        "pinned": memory.pinned,
        # Superseded stays superseded across an export and an import (issue 31).
        "superseded_by": None if memory.superseded_by is None else str(memory.superseded_by),
        "valid_until": None if memory.valid_until is None else memory.valid_until.isoformat(),
    }


def record_marker(record: Mapping[str, Any]) -> tuple[UUID | None, datetime | None]:
    """The exported superseded marker (None, None: current, or an older export)."""
    try:
        by, until = record.get("superseded_by"), record.get("valid_until")
        replaced_by = UUID(str(by)) if by else None
        since = datetime.fromisoformat(until) if until else None
    except (TypeError, ValueError) as exc:
        raise InvalidMemory(f"not a memlane export record: {exc}") from exc
    if replaced_by is not None and since is None:
        raise InvalidMemory("not a memlane export record: superseded_by without valid_until")
    return replaced_by, since


def record_to_new_memory(record: Mapping[str, Any]) -> NewMemory:
    """A memory to store again from an exported record; raises InvalidMemory when malformed."""
    try:
        content = record["content"]
        if not isinstance(content, str):
            raise TypeError("content must be a string")
        raw_type = record.get("memory_type")
        created = record.get("created_at")
        importance = record.get("importance")
        return NewMemory(
            content=content,
            memory_type=MemoryType(raw_type) if raw_type else None,
            importance=float(importance) if importance is not None else None,
            conversation_id=record.get("conversation_id"),
            tags=tuple(str(t) for t in record.get("tags") or ()),
            metadata=dict(record.get("metadata") or {}),
            pinned=bool(record.get("pinned", False)),
            created_at=datetime.fromisoformat(created) if created else None,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidMemory(f"not a memlane export record: {exc}") from exc


@dataclass(frozen=True, slots=True)
class Restored:
    """What an import did with one kind of record: stored anew, or skipped as already held."""

    stored: int = 0
    skipped: int = 0


def exported_id(record: Mapping[str, Any]) -> UUID | None:
    """The id a record was exported with (None in a hand-written record without one)."""
    try:
        return UUID(str(record["id"])) if record.get("id") else None
    except ValueError as exc:
        raise InvalidMemory(f"not a memlane export record: id {record['id']!r}") from exc


def record_heat(
    record: Mapping[str, Any], base_importance: float, created_at: datetime
) -> tuple[Heat, datetime]:
    """The exported heat (accesses, the last one) and last edit time: a restore keeps them."""
    try:
        accessed = record.get("accessed_at")
        updated = record.get("updated_at")
        heat = Heat(
            base_importance=base_importance,
            access_count=int(record.get("access_count") or 0),
            accessed_at=datetime.fromisoformat(accessed) if accessed else created_at,
        )
        return heat, datetime.fromisoformat(updated) if updated else created_at
    except (TypeError, ValueError) as exc:
        raise InvalidMemory(f"not a memlane export record: {exc}") from exc
