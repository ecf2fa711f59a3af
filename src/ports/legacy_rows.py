"""LegacyRowsPort: the memories whose attributes are still plaintext, and their sealing."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from memlane.domain.integrity import RowKey
from memlane.domain.legacy_rows import LegacyRow, SealedRow


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
    async def count_legacy(self) -> int:
        """How many rows, live and quarantined, still hold plaintext attributes."""
