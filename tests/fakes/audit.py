"""FakeAudit and FakeTransactions: the audit log in memory, with the adapter's semantics."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from contextvars import ContextVar
from dataclasses import replace
from uuid import UUID

from memlane.domain.model import Owner
from memlane.domain.security.audit import (
    AuditEntry,
    AuditEvent,
    ChainHead,
    EventKind,
    SubjectKind,
    chain,
    tombstone,
)
from memlane.ports.security.audit import AuditPort, AuditPorts, TransactionPort


class FakeTransactions(TransactionPort):
    """An owner's unit of work: nested calls join; an exception runs the undo steps."""

    def __init__(self) -> None:
        self._open: ContextVar[tuple[Owner, list[Callable[[], None]]] | None] = ContextVar(
            "fake_transaction", default=None
        )

    def current(self) -> Owner | None:
        found = self._open.get()
        return None if found is None else found[0]

    def on_rollback(self, undo: Callable[[], None]) -> None:
        found = self._open.get()
        if found is not None:
            found[1].append(undo)

    @asynccontextmanager
    async def _owner(self, owner: Owner) -> AsyncIterator[None]:
        found = self._open.get()
        if found is not None and found[0] == owner:
            yield
            return
        undo: list[Callable[[], None]] = []
        token = self._open.set((owner, undo))
        try:
            yield
        except BaseException:
            for step in reversed(undo):
                step()
            raise
        finally:
            self._open.reset(token)

    def owner(self, owner: Owner) -> AbstractAsyncContextManager[None]:
        return self._owner(owner)


class FakeAudit(AuditPort):
    """Chains per owner in lists; refuses to write outside the owner's transaction."""

    def __init__(self, transactions: FakeTransactions) -> None:
        self._transactions = transactions
        self.chains: dict[Owner, list[AuditEvent]] = {}

    def _require_transaction(self, owner: Owner) -> None:
        if self._transactions.current() != owner:
            raise RuntimeError("audit events are written inside TransactionPort.owner(owner)")

    async def append(self, owner: Owner, entries: Sequence[AuditEntry]) -> list[AuditEvent]:
        if not entries:
            return []
        self._require_transaction(owner)
        events = self.chains.setdefault(owner, [])
        head = None if not events else ChainHead(events[-1].seq, events[-1].hash)
        made = chain(owner, head, entries)
        before = len(events)
        events.extend(made)
        self._transactions.on_rollback(lambda: events.__delitem__(slice(before, None)))
        return made

    async def history(
        self, owner: Owner, kinds: Sequence[SubjectKind], subject_id: UUID
    ) -> list[AuditEvent]:
        return [
            e for e in self.chains.get(owner, [])
            if e.entry.subject_kind in kinds
            and (subject_id == e.entry.subject_id
                 or (e.entry.subject_kind == SubjectKind.EDGE and subject_id == e.entry.related_id))
        ]

    async def erase(self, owner: Owner) -> int:
        self._require_transaction(owner)
        events = self.chains.get(owner, [])
        before = list(events)
        erased = 0
        for index, event in enumerate(events):
            if event.entry.kind not in (EventKind.ERASED, EventKind.ERASURE):
                events[index] = tombstone(event)
                erased += 1
        self._transactions.on_rollback(lambda: events.__setitem__(slice(None), before))
        return erased

    async def events(self, tenant: str | None, user_id: str | None) -> AsyncIterator[AuditEvent]:
        for owner in sorted(self.chains, key=lambda o: (o.tenant, o.user_id)):
            if tenant not in (None, owner.tenant) or user_id not in (None, owner.user_id):
                continue
            for event in list(self.chains[owner]):
                yield event

    def tamper(self, owner: Owner, index: int, payload: bytes) -> None:
        """Rewrite one event's payload, as an UPDATE behind the trigger's back would."""
        event = self.chains[owner][index]
        self.chains[owner][index] = replace(event, entry=replace(event.entry, payload=payload))


def fake_audit_ports() -> AuditPorts:
    transactions = FakeTransactions()
    return AuditPorts(FakeAudit(transactions), transactions)
