"""AuditService: reading histories (memories, facts) and checking every chain."""

from __future__ import annotations

from uuid import UUID

from memlane.domain.errors import MemoryNotFound
from memlane.domain.facts import FactNotFound
from memlane.domain.model import Owner
from memlane.domain.security import ChainReport, SubjectKind
from memlane.ports.clock import Clock, system_clock
from memlane.ports.encryption import EncryptionPort
from memlane.ports.facts import FactPort
from memlane.ports.memories import MemoryStorePort
from memlane.ports.security import AuditPorts
from memlane.service.security.audit_trail import AuditTrail, HistoryEvent
from memlane.service.security.keyring import KeyringService, keyed
from memlane.service.security.sealing import OnUnreadable, of_kind

# A memory's history shows its own events and those of the edges it is an end of.
MEMORY_SUBJECTS = (SubjectKind.MEMORY, SubjectKind.EDGE)


class AuditService:
    """History outlives its subject: a deleted memory's events stay readable until erasure."""

    def __init__(
        self,
        audit: AuditPorts,
        store: MemoryStorePort,
        encryption: EncryptionPort,
        clock: Clock = system_clock,
        facts: FactPort | None = None,
        keyring: KeyringService | None = None,
        on_unreadable: OnUnreadable | None = None,
    ) -> None:
        """`on_unreadable` hears each event left out of a history (its payload is damaged)."""
        self._keyring = keyring
        listener = None if on_unreadable is None else of_kind(on_unreadable, "audit")
        self._trail = AuditTrail(audit, encryption, clock, keyring, listener)
        self._store = store
        self._facts = facts

    @keyed
    async def memory_history(self, owner: Owner, memory_id: UUID) -> list[HistoryEvent]:
        """Oldest first; MemoryNotFound when the owner has neither the memory nor events of it
        (a memory stored before the audit existed has an empty history)."""
        events = await self._trail.history(owner, MEMORY_SUBJECTS, memory_id)
        if not events and await self._store.get(owner, memory_id) is None:
            raise MemoryNotFound(memory_id)
        return events

    @keyed
    async def fact_history(self, owner: Owner, fact_id: UUID) -> list[HistoryEvent]:
        """Oldest first; FactNotFound when the owner has neither the fact nor events of it."""
        events = await self._trail.history(owner, (SubjectKind.FACT,), fact_id)
        if not events and (self._facts is None or await self._facts.get(owner, fact_id) is None):
            raise FactNotFound(fact_id)
        return events

    async def verify(self, tenant: str | None = None, user_id: str | None = None) -> ChainReport:
        """Check every chain (of the tenant, of the user)."""
        return await self._trail.verify(tenant, user_id)
