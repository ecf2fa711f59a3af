"""Export and import of an owner's facts: they travel with the memories they were read from."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any
from uuid import UUID, uuid4

from memlane.domain.facts import Fact
from memlane.domain.model import Owner
from memlane.domain.portable_facts import (
    FACT,
    exported_fact_id,
    fact_to_record,
    record_to_fact,
)
from memlane.domain.portable_graph import record_type
from memlane.ports.facts import FactPort
from memlane.service import fact_audit
from memlane.service.audit_trail import AuditTrail, change_of
from memlane.service.fact_sealing import FactSealer


def _key(fact: Fact) -> tuple[str, str, str, Any]:
    """What makes an imported fact one the owner already holds (a re-import)."""
    return (fact.subject, fact.relation, fact.object, fact.valid_from)


class FactPorting:
    """Writes an owner's facts as portable records; stores imported ones under new ids."""

    def __init__(
        self,
        facts: FactPort,
        sealer: FactSealer,
        every: Callable[[Owner], AsyncIterator[Fact]],
        trail: AuditTrail | None,
    ) -> None:
        self._facts = facts
        self._sealer = sealer
        self._every = every  # FactService.export: every fact, ended ones too, opened
        self._trail = trail

    async def records(self, owner: Owner) -> AsyncIterator[dict[str, Any]]:
        async for fact in self._every(owner):
            yield fact_to_record(fact)

    async def restore(
        self, owner: Owner, records: Sequence[Mapping[str, Any]], memories: Mapping[UUID, UUID]
    ) -> int:
        """Store the fact records (`memories`: exported memory id -> the memory it became)
        with their validity as exported. A fact the owner already holds (the same statement
        from the same time: re-read from an imported memory, or a re-import) is not stored
        twice; it takes the exported score, and the exported end when both have ended. How
        many facts were stored. Malformed records raise InvalidMemory before anything is."""
        held = {_key(f): f async for f in self._every(owner)}
        exported = [r for r in records if record_type(r) == FACT]
        new_ids = {exported_fact_id(r): uuid4() for r in exported}
        facts = [record_to_fact(r, new_ids[exported_fact_id(r)], memories) for r in exported]
        # A fact already held keeps its id, so the facts it superseded point at it.
        for old, fact in zip(list(new_ids), facts, strict=True):
            known = held.get(_key(fact))
            new_ids[old] = fact.id if known is None else known.id
        fresh = [
            replace(f, superseded_by=None if f.superseded_by is None
                    else new_ids.get(f.superseded_by))
            for f in facts if _key(f) not in held
        ]
        adjusted = [
            (before, after) for before, after in (
                (held[_key(f)], _adopt(held[_key(f)], f)) for f in facts if _key(f) in held)
            if after != before
        ]
        if not fresh and not adjusted:
            return 0
        async with change_of(self._trail, owner) as changes:
            # One save: the new facts inserted, the adjusted ones overwritten.
            stored = await self._facts.save(
                owner, [self._sealer.seal(owner, f) for f in fresh],
                [self._sealer.seal(owner, after) for _, after in adjusted],
            )
            changes.add(*fact_audit.recorded(fresh, []))
            for before, after in adjusted:
                changes.add(*fact_audit.edited(before, after))
        return stored


def _adopt(held: Fact, exported: Fact) -> Fact:
    """The held fact with the exported score (when it has one) and end (when both ended)."""
    score = held.user_fact_score if exported.user_fact_score is None \
        else exported.user_fact_score
    until = held.valid_until
    if held.valid_until is not None and exported.valid_until is not None:
        until = max(exported.valid_until, held.valid_from)
    return replace(held, user_fact_score=score, valid_until=until)
