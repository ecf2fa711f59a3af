"""The portable form of an audit history: each memory's and fact's events travel on its record."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from memlane.domain.errors import InvalidMemory
from memlane.domain.security import EventKind, SubjectKind, is_actor

HISTORY_KEY = "history"  # on a memory or fact record; absent in exports older than it
IMPORTED_KEY = "imported"  # in the payload of an event an import re-chained
# Tombstones and erasure records say nothing about a subject: they stay where they were.
PORTABLE_KINDS = frozenset(EventKind) - {EventKind.ERASED, EventKind.ERASURE}


@dataclass(frozen=True, slots=True)
class PortableEvent:
    """An event as the owner reads it, payload opened (the history routes' HistoryEvent adds
    its place in the chain)."""

    id: UUID
    subject_kind: SubjectKind
    subject_id: UUID
    related_id: UUID | None
    kind: EventKind
    actor: str
    at: datetime
    payload: dict[str, Any] | None


def as_first_recorded(event: PortableEvent) -> PortableEvent:
    """An event an import re-chained, with the id and payload it had in its first chain (an
    event recorded here is itself): so export, import and export again give the same file."""
    payload = event.payload
    if payload is None or not isinstance(payload.get(IMPORTED_KEY), Mapping):
        return event
    rest = {k: v for k, v in payload.items() if k != IMPORTED_KEY}
    return PortableEvent(
        UUID(str(payload[IMPORTED_KEY]["id"])), event.subject_kind, event.subject_id,
        event.related_id, event.kind, event.actor, event.at, rest or None,
    )


def imported_payload(event: PortableEvent, at: datetime, by: str) -> dict[str, Any]:
    """The payload an imported event is re-chained with: its own, plus when, by whom and
    under which id it came in (the id is unique across an installation, so it cannot stay)."""
    marker = {"id": str(event.id), "at": at.isoformat(), "by": by}
    return {**(event.payload or {}), IMPORTED_KEY: marker}


def event_to_record(event: PortableEvent) -> dict[str, Any]:
    """JSON-ready; the subject is the record the event travels on."""
    first = as_first_recorded(event)
    return {
        "id": str(first.id),
        "subject_kind": first.subject_kind.value,
        "related_id": None if first.related_id is None else str(first.related_id),
        "kind": first.kind.value,
        "actor": first.actor,
        "at": first.at.isoformat(),
        "payload": None if first.payload is None else dict(first.payload),
    }


def _event(raw: Any, subject_id: UUID, kinds: Collection[SubjectKind]) -> PortableEvent:
    if not isinstance(raw, Mapping):
        raise TypeError("an event must be an object")
    subject_kind = SubjectKind(raw["subject_kind"])
    kind = EventKind(raw["kind"])
    if subject_kind not in kinds or kind not in PORTABLE_KINDS:
        raise ValueError(f"a {subject_kind.value} {kind.value} event cannot be imported here")
    actor = raw["actor"]
    if not isinstance(actor, str) or not is_actor(actor):
        raise ValueError(f"unknown actor {actor!r}")
    at = datetime.fromisoformat(raw["at"])
    if at.tzinfo is None:
        raise ValueError("an event's time must carry a time zone")
    payload = raw.get("payload")
    if payload is not None and not isinstance(payload, Mapping):
        raise TypeError("an event's payload must be an object or null")
    related = raw.get("related_id")
    return PortableEvent(
        UUID(str(raw["id"])), subject_kind, subject_id,
        None if related is None else UUID(str(related)), kind, actor, at,
        None if payload is None else dict(payload),
    )


def record_to_history(
    record: Mapping[str, Any], subject_id: UUID, kinds: Collection[SubjectKind]
) -> tuple[PortableEvent, ...] | None:
    """The events on a record (None: the record has no history, an older export), about
    `subject_id`; InvalidMemory when one is malformed."""
    raw = record.get(HISTORY_KEY)
    if raw is None:
        return None
    try:
        if not isinstance(raw, list):
            raise TypeError("history must be a list")
        return tuple(_event(item, subject_id, kinds) for item in raw)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InvalidMemory(f"not a memlane history: {exc}") from exc
