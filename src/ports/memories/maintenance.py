"""Maintenance: the heat of memories (decay on access and over time), cleanup, stats, backfill."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

from memlane.domain.memories import CleanupRule
from memlane.domain.model import MemoryStats, Owner, StoredMemory, Vector
from memlane.domain.reach import Reach


class MaintenancePort(ABC):
    """Set-based jobs over memories; a `Reach` is one owner, one tenant (TenantReach) or
    None: every tenant and user."""

    @abstractmethod
    async def record_access(
        self, owner: Owner, memory_ids: Sequence[UUID], now: datetime, base_rate: float
    ) -> int:
        """Bank decay so far and restart the clock for these memories, in one statement
        (an implementation may defer and batch it)."""

    @abstractmethod
    async def materialise_decay(
        self, owner: Reach, now: datetime, base_rate: float
    ) -> int:
        """Write importance(now) into the stored column; returns rows whose value changed."""

    @abstractmethod
    async def cleanup(
        self, owner: Reach, rule: CleanupRule, now: datetime, base_rate: float
    ) -> int:
        """Delete the memories `rule` lets go at `now` (domain.memories.cleanup.may_clean_up:
        unpinned, importance <= min_importance, past the grace period, and imported history
        only without a current fact or a name); returns how many. Judged from the heat, not
        the stored column; the survivors' stored importance is left as it is
        (materialise_decay writes it)."""

    @abstractmethod
    async def stats(self, owner: Reach, now: datetime, base_rate: float) -> MemoryStats:
        """Totals; avg_importance is computed at `now`, not read from the stale column."""

    @abstractmethod
    async def missing_embeddings(self, limit: int) -> list[StoredMemory]:
        """Memories stored while the embedder was down (any owner), oldest first."""

    @abstractmethod
    async def set_embeddings(
        self, items: Sequence[tuple[Owner, UUID, Vector]], model: str
    ) -> int:
        """Attach embeddings to existing memories in one statement."""

    @abstractmethod
    async def ready(self) -> bool:
        """Whether the storage answers now (False, never an exception, when it does not)."""

    async def close(self) -> None:  # noqa: B027 - a no-op unless the adapter defers writes
        """Write what an implementation deferred (queued accesses) before storage closes."""
