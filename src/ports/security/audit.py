"""AuditPort: the append-only, hash-chained event log; TransactionPort: one owner's unit of work."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from uuid import UUID

from memlane.domain.model import Owner
from memlane.domain.security import AuditEntry, AuditEvent, SubjectKind


class TransactionPort(ABC):
    """A transaction holding one owner's write lock, which the storage's adapters join."""

    @abstractmethod
    def owner(self, owner: Owner) -> AbstractAsyncContextManager[None]:
        """Commit on exit, roll back on an exception. Every call the same task makes inside
        it, on any adapter of this storage, runs in it (nested: joins the outer one)."""


class AuditPort(ABC):
    """Events per owner, each chained to the one before; append and erase run inside
    `TransactionPort.owner` of the same owner, so the chain cannot fork."""

    @abstractmethod
    async def append(self, owner: Owner, entries: Sequence[AuditEntry]) -> list[AuditEvent]:
        """Chain the entries after the owner's last event and store them, in one batch."""

    @abstractmethod
    async def history(
        self, owner: Owner, kinds: Sequence[SubjectKind], subject_id: UUID
    ) -> list[AuditEvent]:
        """The owner's events of these subject kinds about `subject_id`, and edge events
        whose other end it is, oldest first."""

    @abstractmethod
    async def erase(self, owner: Owner) -> int:
        """Turn every event of the owner into a tombstone (no payload, kind `erased`),
        keeping ids, times, actors and hashes; how many were erased now."""

    @abstractmethod
    def events(self, tenant: str | None, user_id: str | None) -> AsyncIterator[AuditEvent]:
        """Every event (of the tenant, of the user) ordered by owner then seq, streamed."""


@dataclass(frozen=True, slots=True)
class AuditPorts:
    """The audit log and the unit of work its events share with the changes they record."""

    log: AuditPort
    transactions: TransactionPort
