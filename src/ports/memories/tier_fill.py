"""TierFillPort: memories stored before their tiers and traits were kept, filled in batches."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from uuid import UUID

from memlane.domain.detail import Traits
from memlane.domain.model import Owner, StoredMemory
from memlane.domain.security import RowKey


@dataclass(frozen=True, slots=True)
class FilledTiers:
    """One memory's sealed abstract and overview, and its traits, to store."""

    owner: Owner
    memory_id: UUID
    abstract: bytes
    overview: bytes
    traits: Traits


class TierFillPort(ABC):
    """For `memlane upgrade`: a keyset scan over every owner, a batch write each."""

    @abstractmethod
    async def untiered_batch(self, after: RowKey | None, limit: int) -> list[StoredMemory]:
        """Up to `limit` live memories without tiers after `after`, in (tenant, user_id, id)
        order, without index terms or embedding."""

    @abstractmethod
    async def store_tiers(self, rows: Sequence[FilledTiers]) -> int:
        """Set these memories' tiers (and traits where none are stored) in one statement
        each; a memory given tiers since it was read (a live write or edit) is left as it
        is. Returns how many were set."""

    @abstractmethod
    async def count_untiered(self) -> int:
        """How many live memories, over every owner, are still without tiers."""
