"""What `memlane verify` finds: memories whose sealed fields no longer decrypt."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from memlane.domain.model import Owner

# Where a scan over every owner stands: the last (tenant, user_id, id) it read.
RowKey = tuple[str, str, UUID]


@dataclass(frozen=True, slots=True)
class UnreadableRow:
    """A damaged memory: whose it is, its id, and which sealed fields fail to open."""

    owner: Owner
    memory_id: UUID
    fields: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """A verify run: rows checked, the unreadable ones, and how many were quarantined."""

    checked: int
    unreadable: tuple[UnreadableRow, ...]
    quarantined: int = 0

    @property
    def clean(self) -> bool:
        """Whether nothing unreadable is left in the live table."""
        return len(self.unreadable) == self.quarantined
