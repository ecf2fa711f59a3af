"""FactScanPort: every stored fact of every owner, read in batches (`memlane verify`)."""

from __future__ import annotations

from abc import ABC, abstractmethod

from memlane.domain.facts import StoredFact
from memlane.domain.security import RowKey


class FactScanPort(ABC):
    """A keyset scan across owners; no other read needs one, so it is not on FactPort."""

    @abstractmethod
    async def fact_batch(self, after: RowKey | None, limit: int) -> list[StoredFact]:
        """Up to `limit` facts of any owner after `after`, in (tenant, user_id, id) order."""
