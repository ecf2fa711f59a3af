"""A memory's audit history for the inspector: each event with its changes as a word diff."""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from memlane.service.security import HistoryEvent

# How history names a field, in the order rows are shown.
FIELD_NAMES = {
    "content": "content",
    "memory_type": "type",
    "tags": "tags",
    "base_importance": "importance",
    "pinned": "pinned",
    "metadata": "metadata",
    "conversation_id": "conversation",
}


@dataclass(frozen=True, slots=True)
class Piece:
    """A run of words: kept (`same`), taken out (`old`) or put in (`new`)."""

    change: str
    text: str


@dataclass(frozen=True, slots=True)
class FieldChange:
    name: str
    pieces: tuple[Piece, ...]


@dataclass(frozen=True, slots=True)
class HistoryRow:
    kind: str
    actor: str
    at: datetime
    note: str
    changes: tuple[FieldChange, ...]


def _text(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.2f}"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, Mapping):
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    return "" if value is None else str(value)


def word_diff(old: str, new: str) -> tuple[Piece, ...]:
    """The words of `old` and `new` as kept, removed and added runs (difflib's opcodes)."""
    before, after = old.split(), new.split()
    pieces: list[Piece] = []
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    for op, a1, a2, b1, b2 in matcher.get_opcodes():
        if op == "equal":
            pieces.append(Piece("same", " ".join(before[a1:a2])))
            continue
        if a2 > a1:
            pieces.append(Piece("old", " ".join(before[a1:a2])))
        if b2 > b1:
            pieces.append(Piece("new", " ".join(after[b1:b2])))
    return tuple(pieces)


def _changes(payload: Mapping[str, Any]) -> tuple[FieldChange, ...]:
    old = payload.get("old") or {}
    new = payload.get("new") or {}
    if not isinstance(old, Mapping) or not isinstance(new, Mapping):
        return ()
    rows = []
    for name, label in FIELD_NAMES.items():
        before, after = _text(old.get(name)), _text(new.get(name))
        if before or after:  # a field empty on both sides says nothing
            rows.append(FieldChange(label, word_diff(before, after)))
    return tuple(rows)


def _note(event: HistoryEvent) -> str:
    """What a row says beside its diff: the other end of an edge, what replaced the memory."""
    payload = event.payload or {}
    if event.related_id is not None and event.subject_kind.value == "edge":
        kind = payload.get("kind", "")
        return f"{kind} edge {event.subject_id} → {event.related_id}".strip()
    if "by" in payload:
        return f"replaced by {payload['by']} ({payload.get('edge', '')})"
    if "incoming" in payload:
        return "a new memory merged into this one"
    if event.payload is None and event.kind.value == "erased":
        return "content erased"
    return ""


def history_rows(events: Iterable[HistoryEvent]) -> list[HistoryRow]:
    """Newest first, each event with its changed fields diffed old → new."""
    rows = [
        HistoryRow(
            kind=e.kind.value, actor=e.actor, at=e.at, note=_note(e),
            changes=_changes(e.payload) if e.payload else (),
        )
        for e in events
    ]
    return list(reversed(rows))
