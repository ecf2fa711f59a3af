"""Superseding: the marker set when a statement replaces another, and revived only by a person."""

from __future__ import annotations

import sys
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from uuid import UUID

from memlane.domain.facts import FactType, StoredFact
from memlane.domain.memories import Corrected, Replacement, as_correction, newest_per_old
from memlane.domain.model import Memory, MemoryType, Owner
from memlane.ports.facts import FactPort
from memlane.ports.memories import MemoryStorePort, SupersessionPort
from memlane.service.facts import audit as fact_audit
from memlane.service.memories import audit as memory_audit
from memlane.service.security import Change, Sealer


@dataclass(frozen=True, slots=True)
class Marked:
    """What marking changed: the audit events to record, and the memories that became
    corrections (by id: their new type and heat, for the caller's answer)."""

    changes: list[Change] = field(default_factory=list)
    corrected: dict[UUID, Corrected] = field(default_factory=dict)
    # Memories a replacement left current for the claims (facts) of theirs that still hold:
    # no replacing edge either, so retrieval keeps them (claim-level supersession).
    kept: frozenset[UUID] = frozenset()

    def applied(self, memory: Memory) -> Memory:
        """`memory` as it is stored now, when marking made it a correction."""
        found = self.corrected.get(memory.id)
        if found is None:
            return memory
        return replace(memory, memory_type=MemoryType.CORRECTION, heat=found.heat,
                       importance=found.importance)


# How a statement (not a fact, not a consolidation) replaced a memory: its claims end with it.
_STATEMENT = frozenset({"supersedes", "contradiction"})


def _claims_allowed(how: Mapping[UUID, str], old: UUID) -> int:
    """How many current facts a memory may still carry and be marked replaced: none when its
    facts were what was replaced, one when a statement was, any for a consolidation."""
    kind = how.get(old, "supersedes")
    if kind == "fact":
        return 0
    return 1 if kind in _STATEMENT else sys.maxsize


class Superseding:
    """Every write that replaces a statement marks the older memory here (inside the
    writer's unit of work, so the events commit with the marker). A delete never revives by
    itself; `revive_for` is called for a person's delete only: REST DELETE, MCP forget, the
    inspector, an in-process delete. Cleanup, consolidation and other system deletes leave
    what they deleted replaced (storage points it on along the chain)."""

    def __init__(
        self, port: SupersessionPort, store: MemoryStorePort, sealer: Sealer, base_rate: float,
        facts: FactPort | None = None,
    ) -> None:
        self._port = port
        self._store = store
        self._sealer = sealer
        self._base_rate = base_rate
        self._facts = facts

    async def mark(
        self, owner: Owner, replacements: Sequence[Replacement], now: datetime, *,
        how: Mapping[UUID, str] | None = None, correcting: Collection[UUID] = (),
        whole: Collection[UUID] = (),
    ) -> Marked:
        """Mark each older memory replaced (`how[old]` names how, for its event) and make
        each memory of `correcting` that replaced one a correction, at no less than the
        base importance of what it replaced (DESIGN §2, after the cue order).

        A memory is replaced claim by claim (its facts): one whose facts were replaced
        (`how` "fact") is marked once none of them holds; one a statement replaced is marked
        when it carries at most one current fact, which ends with it in this unit of work;
        a statement cannot say which of several claims it replaces, so such a memory stays
        for the claims that hold (the facts the new memory states end them one by one).
        `whole`: memories so kept whose claims none of the new memory's facts replaced
        ("I retired" after "I'm a teacher at a Gymnasium"): the statement ends them all."""
        kinds = how or {}
        replacing = newest_per_old(replacements)
        held = await self._claims(owner, [r.old for r in replacing], now)
        chosen = [r for r in replacing if r.old in whole
                  or len(held.get(r.old, ())) <= _claims_allowed(kinds, r.old)]
        kept = frozenset(r.old for r in replacing) - {r.old for r in chosen}
        # What replaced a claim is a correction, whether or not its memory went with it.
        corrected = await self._corrections(owner, replacing, set(correcting), now)
        if not chosen:
            return Marked([change for _, change in corrected.values()],
                          {i: c for i, (c, _) in corrected.items()}, kept)
        marked, current = await self._port.supersede(owner, chosen)
        changes = [
            memory_audit.superseded(r.old, r.new, kinds.get(r.old, "supersedes"))
            for r in chosen if r.old in marked
        ]
        changes += await self._end_claims(
            owner, [f for r in chosen if r.old in marked
                    and (kinds.get(r.old) in _STATEMENT or r.old in whole)
                    for f in held.get(r.old, ())], now)
        changes += [memory_audit.revived(i, None) for i in current]
        changes += [change for _, change in corrected.values()]
        return Marked(changes, {i: c for i, (c, _) in corrected.items()}, kept)

    async def _claims(
        self, owner: Owner, memory_ids: Collection[UUID], now: datetime
    ) -> dict[UUID, list[StoredFact]]:
        """The current claims read from these memories, by memory (one read): their facts
        but events, which happened and hold whatever follows ("we moved to Cologne in the
        spring" is replaced with its home, and keeps its event)."""
        if self._facts is None or not memory_ids:
            return {}
        found: dict[UUID, list[StoredFact]] = {}
        for fact in await self._facts.current(owner, now, sources=memory_ids):
            if fact.source_memory_id is not None and fact.fact_type is not FactType.EVENT:
                found.setdefault(fact.source_memory_id, []).append(fact)
        return found

    async def _end_claims(
        self, owner: Owner, facts: Sequence[StoredFact], now: datetime
    ) -> list[Change]:
        """End the facts of memories a statement replaced, with no successor fact (the new
        memory's own facts, read after its write, say what holds now)."""
        if self._facts is None or not facts:
            return []
        ended = [replace(f, valid_until=max(now, f.valid_from), updated_at=now) for f in facts]
        await self._facts.save(owner, [], ended)
        return [fact_audit.ended_with_memory(f) for f in ended]

    async def _corrections(
        self, owner: Owner, chosen: Sequence[Replacement], correcting: set[UUID], now: datetime
    ) -> dict[UUID, tuple[Corrected, Change]]:
        replaced: dict[UUID, list[UUID]] = {}
        for r in chosen:
            if r.new is not None and r.new in correcting:
                replaced.setdefault(r.new, []).append(r.old)
        if not replaced:
            return {}
        wanted = {*replaced, *(old for olds in replaced.values() for old in olds)}
        rows = {r.id: r for r in await self._store.get_many(owner, list(wanted), indexed=False)}
        found: dict[UUID, tuple[Corrected, Change]] = {}
        for new, olds in replaced.items():
            row = rows.get(new)
            if row is None:
                continue
            heats = [rows[o].heat for o in olds if o in rows]
            corrected = as_correction(new, row.heat, heats, now, self._base_rate)
            if row.memory_type is MemoryType.CORRECTION and corrected.heat == row.heat:
                continue
            before = self._sealer.readable(row, now)
            if before is not None:
                after = Marked(corrected={new: corrected}).applied(before)
                found[new] = (corrected, memory_audit.retyped(before, after))
        await self._port.retype(owner, [c for c, _ in found.values()])
        return found

    async def restore(self, owner: Owner, replacements: Sequence[Replacement]) -> None:
        """Markers as an export carried them (their events travel in the histories)."""
        await self._port.supersede(owner, replacements, said=False)

    async def revive_for(self, owner: Owner, memory_ids: Collection[UUID]) -> list[Change]:
        """A person deletes these memories (call it before the delete, in its unit of work):
        what they replaced holds again, memories and the facts their facts replaced; and a
        memory a stated fact had ended comes back with its fact."""
        deleted = await self._store.get_many(owner, list(memory_ids), indexed=False)
        revived = await self._port.revive(owner, replaced_by=memory_ids)
        changes = [memory_audit.revived(i, None) for i in revived]
        if self._facts is not None:
            # A memory that holds again brings back the facts that ended with it: ended
            # without a successor since the first deleted memory was said.
            since = min((m.created_at for m in deleted), default=None)
            facts = await self._facts.revive(
                owner, sources=memory_ids, ended_of=revived, since=since
            )
            changes += [fact_audit.revived(f.id, f.source_memory_id) for f in facts]
            changes += await self._ended_with(owner, facts)
        return changes

    async def revive_for_fact(self, owner: Owner, fact_id: UUID) -> list[Change]:
        """A person deletes a fact (call it before the delete): the facts it replaced hold
        again, and so do the memories they were read from when only a fact had ended them."""
        if self._facts is None:
            return []
        facts = await self._facts.revive(owner, facts=[fact_id])
        return [fact_audit.revived(f.id, fact_id) for f in facts] + await self._ended_with(
            owner, facts
        )

    async def _ended_with(self, owner: Owner, facts: Sequence[StoredFact]) -> list[Change]:
        sources = {f.source_memory_id for f in facts if f.source_memory_id is not None}
        if not sources:
            return []
        revived = await self._port.revive(owner, ended=sources)
        return [memory_audit.revived(i, None) for i in revived]

    async def heads(self, owner: Owner, memory_ids: Collection[UUID]) -> dict[UUID, UUID]:
        """The current memory each superseded one leads to (for a link to it)."""
        return await self._port.heads(owner, memory_ids)
