"""The audit events of memories and edges: which kinds a change makes, with old -> new values."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from memlane.domain.graph import Edge
from memlane.domain.model import Memory
from memlane.domain.security import EventKind, SubjectKind
from memlane.service.security import Change

# The fields an update may change and history shows; pinned has events of its own.
_EDITABLE = ("content", "memory_type", "tags", "metadata", "base_importance")


def _values(memory: Memory, names: Sequence[str]) -> dict[str, Any]:
    found = {
        "content": memory.content,
        "memory_type": memory.memory_type.value,
        "tags": list(memory.tags),
        "metadata": dict(memory.metadata),
        "base_importance": memory.base_importance,
        "pinned": memory.pinned,
    }
    return {name: found[name] for name in names}


def created(memory: Memory) -> Change:
    values = _values(memory, (*_EDITABLE, "pinned"))
    values["conversation_id"] = memory.conversation_id
    return Change(SubjectKind.MEMORY, memory.id, EventKind.CREATED, {"new": values})


def merged(before: Memory, after: Memory, incoming: UUID) -> Change:
    """A new memory folded into `after` (its id `incoming` is never stored)."""
    return Change(
        SubjectKind.MEMORY, after.id, EventKind.MERGED,
        {"into": str(after.id), "incoming": str(incoming),
         "old": _values(before, ("content", "base_importance")),
         "new": _values(after, ("content", "base_importance"))},
    )


def updated(before: Memory, after: Memory) -> list[Change]:
    """An edit: `updated` with the changed fields' old and new values, and (un)pinning."""
    old, new = _values(before, _EDITABLE), _values(after, _EDITABLE)
    changed = [name for name in _EDITABLE if old[name] != new[name]]
    changes = []
    if changed:
        changes.append(Change(
            SubjectKind.MEMORY, after.id, EventKind.UPDATED,
            {"old": {n: old[n] for n in changed}, "new": {n: new[n] for n in changed}},
        ))
    if before.pinned != after.pinned:
        kind = EventKind.PINNED if after.pinned else EventKind.UNPINNED
        changes.append(Change(SubjectKind.MEMORY, after.id, kind))
    return changes


def superseded(old: UUID, by: UUID | None, kind: str) -> Change:
    """`old` replaced by the memory `by` (None: by a fact stated directly); `kind` says how:
    supersedes, contradiction (judged from the words), fact (a fact read from `by` replaced
    one read from `old`), consolidated."""
    return Change(SubjectKind.MEMORY, old, EventKind.SUPERSEDED,
                  {"by": None if by is None else str(by), "edge": kind}, related_id=by)


def revived(memory_id: UUID, because: UUID | None) -> Change:
    """Current again: a person deleted `because`, which had replaced it (None: it was said
    again, or the stated fact that ended it was deleted)."""
    return Change(SubjectKind.MEMORY, memory_id, EventKind.REVIVED,
                  {"because": None if because is None else str(because)}, related_id=because)


def retyped(before: Memory, after: Memory) -> Change:
    """A statement found to replace others became a correction (its type and base importance)."""
    names = ("memory_type", "base_importance")
    return Change(SubjectKind.MEMORY, after.id, EventKind.UPDATED,
                  {"old": _values(before, names), "new": _values(after, names),
                   "reason": "replaces an older statement"})


def consolidated(into: UUID, sources: Sequence[UUID]) -> Change:
    """Several memories condensed into this new one."""
    return Change(SubjectKind.MEMORY, into, EventKind.CONSOLIDATED,
                  {"from": [str(s) for s in sources]})


def consolidated_into(source: UUID, into: UUID) -> Change:
    """A source of a consolidation: what it was condensed into."""
    return Change(SubjectKind.MEMORY, source, EventKind.CONSOLIDATED, {"into": str(into)},
                  related_id=into)


def deleted(memory_id: UUID) -> Change:
    return Change(SubjectKind.MEMORY, memory_id, EventKind.DELETED)


def edge_created(edge: Edge) -> Change:
    return Change(SubjectKind.EDGE, edge.source, EventKind.CREATED,
                  {"kind": edge.kind.value, "weight": edge.weight}, related_id=edge.target)


def edge_removed(source: UUID, target: UUID, kind: str | None) -> Change:
    return Change(SubjectKind.EDGE, source, EventKind.DELETED, {"kind": kind or "all"},
                  related_id=target)
