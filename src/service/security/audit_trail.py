"""AuditTrail: changes recorded as sealed, chained events in the transaction that makes them."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID, uuid4

from memlane.domain.errors import DecryptionFailed
from memlane.domain.model import Owner
from memlane.domain.portability import PortableEvent
from memlane.domain.security import (
    OWNER_SUBJECT,
    AuditEntry,
    AuditEvent,
    ChainReport,
    ChainVerifier,
    EventKind,
    SubjectKind,
)
from memlane.ports.clock import Clock
from memlane.ports.encryption import EncryptionPort, FieldBinding
from memlane.ports.security import AuditPort, AuditPorts
from memlane.service.security.actors import current_actor
from memlane.service.security.keyring import KeyringService

PAYLOAD_FIELD = "audit"
log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Change:
    """One thing that happened to a subject; `payload` (old -> new values) is sealed."""

    subject_kind: SubjectKind
    subject_id: UUID
    kind: EventKind
    payload: Mapping[str, Any] | None = None
    related_id: UUID | None = None
    # An imported event keeps the time and actor of its first recording; else: now, whoever acts.
    at: datetime | None = None
    actor: str | None = None


@dataclass
class Changes:
    """What a unit of work changed, in order; stored as events when it commits."""

    items: list[Change] = field(default_factory=list)

    def add(self, *changes: Change) -> None:
        self.items.extend(changes)


@dataclass(frozen=True, slots=True)
class HistoryEvent(PortableEvent):
    """An event as a caller reads it: payload opened (None for a tombstone), and its place
    in the owner's chain."""

    seq: int


def change_of(trail: AuditTrail | None, owner: Owner) -> AbstractAsyncContextManager[Changes]:
    """`trail.change(owner)`, or, for a part built without a trail, a unit of work that
    records nothing and opens no transaction."""
    return nullcontext(Changes()) if trail is None else trail.change(owner)


async def verify_chains(log: AuditPort, tenant: str | None, user_id: str | None) -> ChainReport:
    """Check every chain (of the tenant, of the user), streaming the events once; needs no
    key: the chain covers sealed payloads, never plaintext."""
    verifier = ChainVerifier()
    async for event in log.events(tenant, user_id):
        verifier.feed(event)
    return verifier.finish()


def _binding(owner: Owner, event_id: UUID) -> FieldBinding:
    return FieldBinding(owner.tenant, owner.user_id, event_id, PAYLOAD_FIELD)


def payload_opens(encryption: EncryptionPort, event: AuditEvent) -> bool:
    """Whether an event's sealed payload decrypts (a tombstone has none: it does)."""
    payload = event.entry.payload
    if payload is None:
        return True
    try:
        json.loads(encryption.open(payload, _binding(event.owner, event.entry.id)))
    except (DecryptionFailed, ValueError):
        return False
    return True


class AuditTrail:
    """Without ports (`None`) it records nothing and opens no transaction: the old write path."""

    def __init__(
        self, ports: AuditPorts | None, encryption: EncryptionPort, clock: Clock,
        keyring: KeyringService | None = None,
        on_unreadable: Callable[[UUID], None] | None = None,
    ) -> None:
        self._ports = ports
        self._encryption = encryption
        self._clock = clock
        self.keyring = keyring
        self._on_unreadable = on_unreadable

    async def _key_for_write(self, owner: Owner) -> None:
        # Under the owner's lock: the key row as it is now (an erasure elsewhere is seen).
        if self.keyring is not None:
            await self.keyring.ready_for_write([owner])

    @property
    def enabled(self) -> bool:
        return self._ports is not None

    @asynccontextmanager
    async def change(self, owner: Owner) -> AsyncIterator[Changes]:
        """A unit of work of the owner: its writes and their events commit or roll back
        together, under the owner's write lock (which also keeps the chain linear)."""
        changes = Changes()
        if self._ports is None:
            await self._key_for_write(owner)
            yield changes
            return
        async with self._ports.transactions.owner(owner):
            await self._key_for_write(owner)
            yield changes
            if changes.items:
                await self._ports.log.append(owner, self._entries(owner, changes.items))

    async def erase(self, owner: Owner, changes: Changes, **counts: int) -> int:
        """Destroy the owner's data key, tombstone their events (inside `change`) and record
        the erasure after them, with `counts` of what else it removed (memories_deleted=…)."""
        if self.keyring is not None:
            # Crypto-shredding: the owner's key goes in this transaction.
            await self.keyring.destroy(owner)
        if self._ports is None:
            return 0
        # The erasure's own event (counts only) is sealed under a fresh key.
        await self._key_for_write(owner)
        erased = await self._ports.log.erase(owner)
        changes.add(Change(SubjectKind.OWNER, OWNER_SUBJECT, EventKind.ERASURE,
                           {"events_erased": erased, **counts}))
        return erased

    async def history(
        self, owner: Owner, kinds: Sequence[SubjectKind], subject_id: UUID
    ) -> list[HistoryEvent]:
        """Oldest first, payloads opened; an event whose payload does not decrypt is left out
        (warned by id, counted), as a damaged memory is left out of a list."""
        if self._ports is None:
            return []
        events = await self._ports.log.history(owner, kinds, subject_id)
        return [opened for e in events if (opened := self._readable(e)) is not None]

    def _readable(self, event: AuditEvent) -> HistoryEvent | None:
        try:
            return self._opened(event)
        except (DecryptionFailed, ValueError):  # ValueError: not the JSON we sealed
            log.warning("audit event %s does not decrypt: left out of this history",
                        event.entry.id)
            if self._on_unreadable is not None:
                self._on_unreadable(event.entry.id)
            return None

    async def histories(self, owner: Owner) -> dict[UUID, list[HistoryEvent]]:
        """Every event of the owner that still says something (no tombstone, no erasure
        record), payload opened, by subject id, oldest first: one streamed read for an export."""
        found: dict[UUID, list[HistoryEvent]] = {}
        if self._ports is None:
            return found
        async for event in self._ports.log.events(owner.tenant, owner.user_id):
            if event.entry.kind not in (EventKind.ERASED, EventKind.ERASURE):
                found.setdefault(event.entry.subject_id, []).append(self._opened(event))
        return found

    async def verify(self, tenant: str | None, user_id: str | None) -> ChainReport:
        """Check every chain (of the tenant, of the user), streaming the events once."""
        if self._ports is None:
            return ChainReport()
        return await verify_chains(self._ports.log, tenant, user_id)

    def _entries(self, owner: Owner, changes: Sequence[Change]) -> list[AuditEntry]:
        at, actor = self._clock(), current_actor()
        entries = []
        for change in changes:
            event_id = uuid4()
            payload = None
            if change.payload is not None:
                text = json.dumps(change.payload, sort_keys=True, default=str)
                payload = self._encryption.seal(text, _binding(owner, event_id))
            entries.append(AuditEntry(
                event_id, change.subject_kind, change.subject_id, change.kind,
                change.actor or actor, change.at or at, payload, change.related_id,
            ))
        return entries

    def _opened(self, event: AuditEvent) -> HistoryEvent:
        entry = event.entry
        payload = None
        if entry.payload is not None:
            payload = json.loads(self._encryption.open(entry.payload, _binding(event.owner,
                                                                                 entry.id)))
        return HistoryEvent(
            id=entry.id, seq=event.seq, subject_kind=entry.subject_kind,
            subject_id=entry.subject_id, related_id=entry.related_id, kind=entry.kind,
            actor=entry.actor, at=entry.at, payload=payload,
        )
