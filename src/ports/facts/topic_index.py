"""TopicIndexPort: the memories stored before topic tokens were kept, and their backfill."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from memlane.domain.facts import MemoryTopicTokens
from memlane.domain.model import StoredMemory
from memlane.domain.security import RowKey


class TopicIndexPort(ABC):
    """For `memlane upgrade`: a keyset scan over every owner, a batch write each."""

    @abstractmethod
    async def untokened_batch(self, after: RowKey | None, limit: int) -> list[StoredMemory]:
        """Up to `limit` live memories without topic tokens after `after`, in (tenant,
        user_id, id) order, without index terms or embedding."""

    @abstractmethod
    async def store_tokens(self, rows: Sequence[MemoryTopicTokens]) -> int:
        """Set these memories' tokens in one statement; a memory given tokens since it was
        read (by a live write) is left as it is. Returns how many were set."""

    @abstractmethod
    async def count_untokened(self) -> int:
        """How many live memories, over every owner, are still without topic tokens."""
