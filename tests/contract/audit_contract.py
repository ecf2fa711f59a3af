"""AuditPortContract: what every AuditPort (fake or PostgreSQL) does with one owner's chain.

Subclass it and provide the fixtures `audit` (AuditPorts) and `owner` (fresh per test)."""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID, uuid4

import pytest

from memlane.domain.model import Owner
from memlane.domain.security.audit import (
    GENESIS,
    OWNER_SUBJECT,
    AuditEntry,
    EventKind,
    SubjectKind,
    key_actor,
)
from memlane.domain.security.audit_chain import verify
from memlane.ports.security.audit import AuditPorts
from tests.contract.builders import T0


def entry(
    subject: UUID, kind: EventKind = EventKind.CREATED, *, minutes: int = 0,
    subject_kind: SubjectKind = SubjectKind.MEMORY, related: UUID | None = None,
    payload: bytes | None = b"sealed",
) -> AuditEntry:
    return AuditEntry(uuid4(), subject_kind, subject, kind, key_actor(uuid4()),
                      T0 + timedelta(minutes=minutes), payload, related)


class AuditPortContract:
    async def test_events_chain_from_genesis_and_continue_across_appends(
        self, audit: AuditPorts, owner: Owner
    ) -> None:
        memory = uuid4()
        async with audit.transactions.owner(owner):
            first = await audit.log.append(owner, [entry(memory), entry(memory, minutes=1)])
        async with audit.transactions.owner(owner):
            later = await audit.log.append(owner, [entry(memory, EventKind.UPDATED, minutes=2)])
        assert [e.seq for e in first + later] == [1, 2, 3]
        assert first[0].prev_hash == GENESIS
        assert later[0].prev_hash == first[1].hash
        stored = [e async for e in audit.log.events(owner.tenant, owner.user_id)]
        assert stored == first + later
        assert verify(stored).intact

    async def test_appending_outside_the_owners_transaction_is_refused(
        self, audit: AuditPorts, owner: Owner
    ) -> None:
        with pytest.raises(RuntimeError):
            await audit.log.append(owner, [entry(uuid4())])
        other = Owner(owner.tenant, owner.user_id + "-other")
        async with audit.transactions.owner(other):
            with pytest.raises(RuntimeError):
                await audit.log.append(owner, [entry(uuid4())])
            async with audit.transactions.owner(owner):  # another owner's: its own
                await audit.log.append(owner, [entry(uuid4())])
            with pytest.raises(RuntimeError):  # ... which has ended
                await audit.log.append(owner, [entry(uuid4())])
            await audit.log.append(other, [entry(uuid4())])
        for who in (owner, other):
            assert [e.seq async for e in audit.log.events(who.tenant, who.user_id)] == [1]

    async def test_events_of_a_transaction_that_fails_are_not_kept(
        self, audit: AuditPorts, owner: Owner
    ) -> None:
        memory = uuid4()
        async with audit.transactions.owner(owner):
            await audit.log.append(owner, [entry(memory)])
        with pytest.raises(LookupError):
            async with audit.transactions.owner(owner):
                await audit.log.append(owner, [entry(memory, EventKind.DELETED)])
                raise LookupError("the change failed")
        kept = await audit.log.history(owner, [SubjectKind.MEMORY], memory)
        assert [e.entry.kind for e in kept] == [EventKind.CREATED]

    async def test_history_is_the_subjects_events_and_its_edges_oldest_first_and_only_the_owners(
        self, audit: AuditPorts, owner: Owner
    ) -> None:
        memory, other, fact = uuid4(), uuid4(), uuid4()
        stranger = Owner(owner.tenant, owner.user_id + "-stranger")
        async with audit.transactions.owner(owner):
            await audit.log.append(owner, [
                entry(memory),
                entry(other, EventKind.CREATED, minutes=1),
                entry(other, EventKind.CREATED, minutes=2, subject_kind=SubjectKind.EDGE,
                      related=memory),
                entry(fact, minutes=3, subject_kind=SubjectKind.FACT),
                entry(other, EventKind.SUPERSEDED, minutes=3, related=memory),
                entry(memory, EventKind.PINNED, minutes=4, payload=None),
            ])
        async with audit.transactions.owner(stranger):
            await audit.log.append(stranger, [entry(memory, EventKind.DELETED)])
        found = await audit.log.history(owner, [SubjectKind.MEMORY, SubjectKind.EDGE], memory)
        assert [(e.entry.subject_kind, e.entry.kind) for e in found] == [
            (SubjectKind.MEMORY, EventKind.CREATED),
            (SubjectKind.EDGE, EventKind.CREATED),
            (SubjectKind.MEMORY, EventKind.PINNED),
        ]
        assert found[-1].entry.payload is None
        facts = await audit.log.history(owner, [SubjectKind.FACT], fact)
        assert [e.entry.subject_id for e in facts] == [fact]
        assert await audit.log.history(owner, [SubjectKind.FACT], memory) == []

    async def test_erasing_leaves_tombstones_and_a_chain_that_still_verifies(
        self, audit: AuditPorts, owner: Owner
    ) -> None:
        memory = uuid4()
        async with audit.transactions.owner(owner):
            before = await audit.log.append(owner, [entry(memory), entry(memory, minutes=1)])
        async with audit.transactions.owner(owner):
            assert await audit.log.erase(owner) == 2
            await audit.log.append(owner, [entry(OWNER_SUBJECT, EventKind.ERASURE, minutes=2,
                                                 subject_kind=SubjectKind.OWNER)])
        async with audit.transactions.owner(owner):
            assert await audit.log.erase(owner) == 0  # tombstones and erasures stay as they are
        found = await audit.log.history(owner, [SubjectKind.MEMORY], memory)
        assert [(e.entry.kind, e.entry.payload) for e in found] == [(EventKind.ERASED, None)] * 2
        assert [(e.entry.id, e.entry.at, e.entry.actor, e.hash) for e in found] == [
            (e.entry.id, e.entry.at, e.entry.actor, e.hash) for e in before
        ]
        report = verify([e async for e in audit.log.events(owner.tenant, None)])
        assert report.intact and report.tombstones == 2 and report.events == 3

    async def test_events_are_streamed_per_owner_in_chain_order(
        self, audit: AuditPorts, owner: Owner
    ) -> None:
        second = Owner(owner.tenant, owner.user_id + "-2")
        for who in (second, owner):
            async with audit.transactions.owner(who):
                await audit.log.append(who, [entry(uuid4()), entry(uuid4(), minutes=1)])
        streamed = [e async for e in audit.log.events(owner.tenant, None)]
        assert sorted({e.owner for e in streamed}, key=str) == sorted({owner, second}, key=str)
        for who in (owner, second):
            assert [e.seq for e in streamed if e.owner == who] == [1, 2]
        assert {e.owner for e in [x async for x in audit.log.events(None, second.user_id)]} \
            == {second}
        report = verify(streamed)
        assert report.intact and report.owners == 2
