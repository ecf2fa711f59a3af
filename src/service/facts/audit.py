"""The audit events of facts: created, updated (old -> new), score overridden, superseded,
revived, deleted."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from memlane.domain.facts import Fact, StoredFact
from memlane.domain.security import EventKind, SubjectKind
from memlane.service.security import Change

_EDITABLE = ("object", "fact_type", "time_span")


def _values(fact: Fact) -> dict[str, Any]:
    return {
        "subject": fact.subject, "relation": fact.relation, "object": fact.object,
        "fact_type": fact.fact_type.value, "time_span": fact.time_span.value,
        "confidence": fact.confidence, "user_fact_score": fact.user_fact_score,
        "source_memory_id": None if fact.source_memory_id is None
        else str(fact.source_memory_id),
        "valid_from": fact.valid_from.isoformat(),
    }


def recorded(new: Sequence[Fact], ended: Sequence[Fact]) -> list[Change]:
    """A ledger's changes: each new fact created, each ended fact superseded (or ended)."""
    changes = [Change(SubjectKind.FACT, f.id, EventKind.CREATED, {"new": _values(f)},
                      related_id=f.source_memory_id) for f in new]
    changes += [
        Change(SubjectKind.FACT, f.id, EventKind.SUPERSEDED,
               {"by": None if f.superseded_by is None else str(f.superseded_by),
                "valid_until": None if f.valid_until is None else f.valid_until.isoformat()},
               related_id=f.superseded_by)
        for f in ended
    ]
    return changes


def ended_with_memory(fact: StoredFact) -> Change:
    """A fact ended because a statement replaced the memory it was read from."""
    return Change(SubjectKind.FACT, fact.id, EventKind.SUPERSEDED,
                  {"by": None, "valid_until": None if fact.valid_until is None
                   else fact.valid_until.isoformat()},
                  related_id=fact.source_memory_id)


def edited(before: Fact, after: Fact) -> list[Change]:
    """An edit: `updated` with the changed fields, and `score_overridden` for the score."""
    old, new = _values(before), _values(after)
    changed = [name for name in _EDITABLE if old[name] != new[name]]
    changes = []
    if changed:
        changes.append(Change(SubjectKind.FACT, after.id, EventKind.UPDATED, {
            "old": {n: old[n] for n in changed}, "new": {n: new[n] for n in changed}}))
    if before.user_fact_score != after.user_fact_score:
        changes.append(Change(SubjectKind.FACT, after.id, EventKind.SCORE_OVERRIDDEN, {
            "old": before.user_fact_score, "new": after.user_fact_score}))
    return changes


def revived(fact_id: UUID, because: UUID | None) -> Change:
    """Current again: a person deleted `because` (the fact that had replaced it, or the memory
    it was read from)."""
    return Change(SubjectKind.FACT, fact_id, EventKind.REVIVED,
                  {"because": None if because is None else str(because)}, related_id=because)


def deleted(fact_id: UUID) -> Change:
    return Change(SubjectKind.FACT, fact_id, EventKind.DELETED)
