"""LegacyRowsPort: the memories whose attributes are still plaintext, and their sealing."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from memlane.domain.portability import (
    LegacyRelation,
    LegacyRow,
    SealedRelation,
    SealedRow,
)
from memlane.domain.security import RowKey


class LegacyRowsPort(ABC):
    """For `memlane seal-existing`: a keyset scan over every owner, a batch write each."""

    @abstractmethod
    async def legacy_batch(
        self, after: RowKey | None, limit: int, *, quarantined: bool = False
    ) -> list[LegacyRow]:
        """Up to `limit` rows not yet sealed after `after`, in (tenant, user_id, id) order,
        from the live memories or (`quarantined`) the quarantine."""

    @abstractmethod
    async def store_sealed(self, rows: Sequence[SealedRow], *, quarantined: bool = False) -> int:
        """Replace these rows' plaintext columns in one statement; a row written since it
        was read (sealed by a live write) is left as it is. Returns how many were sealed."""

    @abstractmethod
    async def legacy_relations(self, after: RowKey | None, limit: int) -> list[LegacyRelation]:
        """Up to `limit` facts after `after` whose relation is neither memlane's own nor
        sealed, in (tenant, user_id, id) order."""

    @abstractmethod
    async def store_relations(self, rows: Sequence[SealedRelation]) -> int:
        """Replace these facts' relations by token and sealed name, in one statement."""

    @abstractmethod
    async def count_legacy(self) -> int:
        """How many rows, live and quarantined, still hold plaintext attributes."""

    @abstractmethod
    async def count_legacy_relations(self) -> int:
        """How many facts `legacy_relations` would still return, over every owner."""
