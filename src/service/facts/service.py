"""FactService: an owner's facts, listed, stated, edited, deleted, and the profile over them."""

from __future__ import annotations

import builtins
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from typing import Protocol
from uuid import UUID

from memlane.domain.errors import InvalidMemory
from memlane.domain.facts import (
    RELATION_TYPES,
    ExtractedFact,
    Fact,
    FactFilter,
    FactNotFound,
    FactPatch,
    NewFact,
    Profile,
    ProfileBlock,
    ProfileCaps,
    ProfileHeaders,
    Statement,
    TimeSpan,
    build_profile,
    check_text,
    checked,
    render_block,
    validate_user_fact_score,
)
from memlane.domain.model import Cursor, Owner, Page
from memlane.ports.clock import Clock
from memlane.ports.facts import FactPort
from memlane.ports.memories import MemoryStorePort
from memlane.service.facts import audit as fact_audit
from memlane.service.facts.recording import FactRecorder
from memlane.service.facts.sealing import FactSealer
from memlane.service.security import (
    AuditTrail,
    Change,
    KeyringService,
    change_of,
    keyed,
    keyed_stream,
)

MAX_LIST_LIMIT = 500
EXPORT_PAGE = 200


class FactReviver(Protocol):
    """What a person's delete of a fact brings back (the memories' supersession use case)."""

    async def revive_for_fact(self, owner: Owner, fact_id: UUID) -> builtins.list[Change]: ...


class FactService:
    """Facts of one owner at a time; another owner's fact is FactNotFound (404)."""

    def __init__(
        self,
        facts: FactPort,
        recorder: FactRecorder,
        sealer: FactSealer,
        store: MemoryStorePort,
        clock: Clock,
        caps: ProfileCaps | None = None,
        trail: AuditTrail | None = None,
        reviver: FactReviver | None = None,
        headers: ProfileHeaders | None = None,
    ) -> None:
        self._facts = facts
        self._trail = trail
        self._keyring: KeyringService | None = None if trail is None else trail.keyring
        self._recorder = recorder
        self._sealer = sealer
        self._store = store
        self._clock = clock
        self._caps = caps or ProfileCaps()
        self._reviver = reviver
        self._headers = headers or ProfileHeaders()

    @property
    def recorder(self) -> FactRecorder:
        """What the write path reads facts with."""
        return self._recorder

    @keyed
    async def list(
        self, owner: Owner, filters: FactFilter | None = None, cursor: Cursor | None = None,
        limit: int = 50,
    ) -> Page[Fact]:
        """Newest first, keyset-paginated; current facts only unless `filters` says otherwise."""
        if not 1 <= limit <= MAX_LIST_LIMIT:
            raise InvalidMemory(f"limit must be between 1 and {MAX_LIST_LIMIT}")
        page = await self._facts.list(owner, filters or FactFilter(), cursor, limit, self._clock())
        # A damaged fact is left out; the cursor still moves past it.
        return Page(self._sealer.readable_all(page.items), page.next_cursor)

    @keyed
    async def get(self, owner: Owner, fact_id: UUID) -> Fact:
        stored = await self._facts.get(owner, fact_id)
        if stored is None:
            raise FactNotFound(fact_id)
        return self._sealer.opened(stored)

    @keyed
    async def current(self, owner: Owner) -> builtins.list[Fact]:
        """Every current fact of the owner, in no particular order."""
        return self._sealer.readable_all(await self._facts.current(owner, self._clock()))

    @keyed
    async def of_memories(self, owner: Owner, memory_ids: Sequence[UUID]) -> builtins.list[Fact]:
        """The current facts read from these memories."""
        if not memory_ids:
            return []
        rows = await self._facts.current(owner, self._clock(), sources=memory_ids)
        return self._sealer.readable_all(rows)

    @keyed
    async def state(self, owner: Owner, new: NewFact) -> Fact:
        """Store a fact the user states directly; it supersedes like an extracted one. A fact
        that already holds is returned as it is (with the new score, when one is given)."""
        new = checked(new)
        extracted = ExtractedFact(
            subject=new.subject, relation=new.relation, object=new.object,
            fact_type=new.fact_type or RELATION_TYPES[new.relation],
            time_span=new.time_span or TimeSpan.CURRENT, confidence=new.confidence,
        )  # checked() filled in type and time span; the defaults only satisfy the types
        statement = Statement(extracted, user_fact_score=new.user_fact_score)
        changes = await self._recorder.apply(owner, [statement])
        if 0 in changes.created:
            return changes.created[0]
        held = changes.restated[0]
        if new.user_fact_score is None:
            return held
        return await self.update(owner, held.id, FactPatch(user_fact_score=new.user_fact_score))

    @keyed
    async def update(self, owner: Owner, fact_id: UUID, patch: FactPatch) -> Fact:
        """Edit object, type, time span or the user's score; the rest is provenance."""
        # Read and written in one unit of work: the audit's old values are what was replaced.
        async with change_of(self._trail, owner) as changes:
            fact = await self.get(owner, fact_id)
            now = self._clock()
            score = None if patch.clear_score else patch.user_fact_score
            if score is None and not patch.clear_score:
                score = fact.user_fact_score
            edited = replace(
                fact,
                object=fact.object if patch.object is None
                else check_text("object", patch.object),
                fact_type=patch.fact_type or fact.fact_type,
                time_span=patch.time_span or fact.time_span,
                user_fact_score=validate_user_fact_score(score),
                updated_at=now,
            )
            if not await self._facts.update(self._sealer.seal(owner, edited)):
                raise FactNotFound(fact_id)
            changes.add(*fact_audit.edited(fact, edited))
        return edited

    @keyed
    async def delete(self, owner: Owner, fact_id: UUID) -> None:
        """A person deletes a fact: the facts it had superseded hold again (and a memory only
        that fact had ended). Nothing else revives a replaced fact."""
        async with change_of(self._trail, owner) as changes:
            if self._reviver is not None and await self._facts.get(owner, fact_id) is not None:
                changes.add(*await self._reviver.revive_for_fact(owner, fact_id))
            if not await self._facts.delete(owner, fact_id):
                raise FactNotFound(fact_id)
            changes.add(fact_audit.deleted(fact_id))

    @keyed
    async def delete_all(self, owner: Owner) -> int:
        return await self._facts.delete_all(owner)

    @keyed_stream
    async def export(self, owner: Owner) -> AsyncIterator[Fact]:
        """Every fact of the owner, ended ones too, newest first."""
        cursor: Cursor | None = None
        while True:
            page = await self._facts.list(
                owner, FactFilter(current=None), cursor, EXPORT_PAGE, self._clock()
            )
            for fact in self._sealer.readable_all(page.items):
                yield fact
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    @keyed
    async def profile_block(self, owner: Owner, char_budget: int) -> ProfileBlock:
        """The core tier rendered for a prompt, in at most half of `char_budget` (the other
        half stays for the memories the query finds): what a person chose to keep under the
        kept header, what memlane read under the told one (docs/facts.md)."""
        core = (await self.profile(owner)).core
        sources = list({f.source_memory_id for f in core if f.source_memory_id is not None})
        # Only whether a source is pinned is asked, and only of the core's sources.
        rows = await self._store.get_many(owner, sources, indexed=False) if sources else []
        pinned = frozenset(r.id for r in rows if r.pinned)
        return render_block(core, pinned, self._headers, char_budget // 2)

    @keyed
    async def profile(self, owner: Owner) -> Profile:
        """The "do not forget" view: current facts, safety constraints first, then by type,
        ranked by the user's score and confidence and capped per tier."""
        return build_profile(await self.current(owner), self._caps, self._clock())
