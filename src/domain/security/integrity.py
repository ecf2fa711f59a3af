"""What `memlane verify` finds: memories, facts and audit events whose sealed fields no longer
decrypt."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from memlane.domain.model import Owner

# Where a scan over every owner stands: the last (tenant, user_id, id) it read.
RowKey = tuple[str, str, UUID]


@dataclass(frozen=True, slots=True)
class UnreadableRow:
    """A damaged memory (or fact, audit event): whose it is, its id, and which sealed fields
    fail to open."""

    owner: Owner
    memory_id: UUID
    fields: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """A verify run: rows checked, the unreadable ones, and how many were quarantined."""

    checked: int
    unreadable: tuple[UnreadableRow, ...]
    quarantined: int = 0
    # Facts and audit events are reported, never moved: the owner deletes a damaged fact,
    # and an audit event stays where its chain has it (verify-audit names it too).
    facts_checked: int = 0
    unreadable_facts: tuple[UnreadableRow, ...] = ()
    events_checked: int = 0
    unreadable_events: tuple[UnreadableRow, ...] = ()

    @property
    def clean(self) -> bool:
        """Whether nothing unreadable is left live: no memory, fact or event."""
        return (
            len(self.unreadable) == self.quarantined
            and not self.unreadable_facts and not self.unreadable_events
        )
