"""Export and import of an owner's facts: they travel with the memories they were read from."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any
from uuid import UUID

from memlane.domain.facts import Fact
from memlane.domain.model import Owner
from memlane.domain.portability import (
    FACT,
    Restored,
    exported_fact_id,
    fact_to_record,
    record_to_fact,
    record_to_history,
    record_type,
)
from memlane.domain.security import SubjectKind
from memlane.ports.clock import Clock
from memlane.ports.facts import FactPort
from memlane.service.facts import FactSealer, audit as fact_audit
from memlane.service.portability.history import reimported
from memlane.service.security import AuditTrail, change_of


def _key(fact: Fact) -> tuple[str, str, str, Any]:
    """What makes an imported fact one the owner already holds (a re-import)."""
    return (fact.subject, fact.relation, fact.object, fact.valid_from)


class FactPorting:
    """Writes an owner's facts as portable records; stores imported ones under their ids."""

    def __init__(
        self,
        facts: FactPort,
        sealer: FactSealer,
        every: Callable[[Owner], AsyncIterator[Fact]],
        trail: AuditTrail | None,
        clock: Clock,
    ) -> None:
        self._facts = facts
        self._sealer = sealer
        self._every = every  # FactService.export: every fact, ended ones too, opened
        self._trail = trail
        self._clock = clock

    async def records(self, owner: Owner) -> AsyncIterator[dict[str, Any]]:
        async for fact in self._every(owner):
            yield fact_to_record(fact)

    async def restore(
        self, owner: Owner, records: Sequence[Mapping[str, Any]], memories: Mapping[UUID, UUID]
    ) -> Restored:
        """Store the fact records (`memories`: exported memory id -> the memory it became)
        under their exported ids, with their validity and histories as exported. A fact the
        owner already holds (that id, or the same statement from the same time, e.g. re-read
        from an imported memory) is skipped; it takes the exported score, and the exported
        end when both have ended. Malformed records raise InvalidMemory before anything is."""
        every = [f async for f in self._every(owner)]
        by_id = {f.id: f for f in every}
        by_key = {_key(f): f for f in every}
        exported = list({exported_fact_id(r): r for r in records if record_type(r) == FACT}
                        .values())
        facts = [record_to_fact(r, exported_fact_id(r), memories) for r in exported]
        histories = {f.id: record_to_history(r, f.id, (SubjectKind.FACT,))
                     for f, r in zip(facts, exported, strict=True)}
        known = {f.id: by_id.get(f.id) or by_key.get(_key(f)) for f in facts}
        # A fact already held keeps its id, so the facts it superseded point at it.
        new_ids = {f.id: f.id if (k := known[f.id]) is None else k.id for f in facts}
        fresh = [
            replace(f, superseded_by=None if f.superseded_by is None
                    else new_ids.get(f.superseded_by))
            for f in facts if known[f.id] is None
        ]
        pairs = [(held, _adopt(held, f)) for f in facts if (held := known[f.id]) is not None]
        adjusted = [(before, after) for before, after in pairs if after != before]
        if fresh or adjusted:
            async with change_of(self._trail, owner) as changes:
                # One save: the new facts inserted, the adjusted ones overwritten.
                await self._facts.save(
                    owner, [self._sealer.seal(owner, f) for f in fresh],
                    [self._sealer.seal(owner, after) for _, after in adjusted],
                )
                now = self._clock()
                for fact in fresh:
                    history = histories[fact.id]
                    changes.add(*(fact_audit.recorded([fact], []) if history is None
                                  else reimported(fact.id, history, now)))
                for before, after in adjusted:
                    changes.add(*fact_audit.edited(before, after))
        return Restored(len(fresh), len(facts) - len(fresh))


def _adopt(held: Fact, exported: Fact) -> Fact:
    """The held fact with the exported score (when it has one) and end (when both ended)."""
    score = held.user_fact_score if exported.user_fact_score is None \
        else exported.user_fact_score
    until = held.valid_until
    if held.valid_until is not None and exported.valid_until is not None:
        until = max(exported.valid_until, held.valid_from)
    return replace(held, user_fact_score=score, valid_until=until)
