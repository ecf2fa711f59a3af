"""IntegrityPort: every sealed memory read in batches across owners, and the quarantine."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import datetime

from memlane.domain.model import StoredMemory
from memlane.domain.security import RowKey, UnreadableRow


class IntegrityPort(ABC):
    """For `memlane verify`: a keyset scan of all memories, and a table out of every read."""

    @abstractmethod
    async def sealed_batch(self, after: RowKey | None, limit: int) -> list[StoredMemory]:
        """Up to `limit` memories of any owner after `after`, in (tenant, user_id, id) order;
        embeddings and index terms are not read."""

    @abstractmethod
    async def quarantine(self, rows: Sequence[UnreadableRow], now: datetime) -> int:
        """Move these memories out of the live tables into the quarantine, whole and in one
        transaction (nothing lost, nothing left half-moved); returns how many moved."""
