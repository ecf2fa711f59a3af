"""Histories in an export and back: events re-chained in the importing owner's trail."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from memlane.domain.portability import (
    HISTORY_KEY,
    PortableEvent,
    event_to_record,
    imported_payload,
)
from memlane.service.security import Change, HistoryEvent, current_actor


def with_history(
    record: dict[str, Any], subject_id: UUID, histories: dict[UUID, list[HistoryEvent]]
) -> dict[str, Any]:
    """The record with the subject's own events (an edge's events travel on its source)."""
    events = [e for e in histories.get(subject_id, ()) if e.subject_id == subject_id]
    return {**record, HISTORY_KEY: [event_to_record(e) for e in events]}


def reimported(
    subject_id: UUID, history: Sequence[PortableEvent], now: datetime
) -> list[Change]:
    """The exported events as changes of the importing owner's chain: kind, subject, related
    id, time and actor as first recorded; the payload says when, by whom and under which
    id it came in."""
    by = current_actor()
    return [
        Change(e.subject_kind, subject_id, e.kind, imported_payload(e, now, by), e.related_id,
               at=e.at, actor=e.actor)
        for e in history
    ]
