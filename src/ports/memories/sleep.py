"""SleepPort: the sleep cycle's set-based reads and writes, batch by batch from watermarks."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Protocol
from uuid import UUID

from memlane.domain.memories import Changed, NearPair, SleepReport
from memlane.domain.model import Owner
from memlane.domain.reach import Reach


class SleepPort(ABC):
    """Each owner's watermark is the last memory, by (updated_at, id), a cycle processed."""

    @abstractmethod
    async def pending(self, reach: Reach, now: datetime) -> int:
        """How many memories within `reach` were written or edited after their owner's
        watermark and at or before `now`."""

    @abstractmethod
    async def changed(self, reach: Reach, now: datetime, limit: int) -> list[Changed]:
        """The next `limit` of them, owner by owner, each owner's in (updated_at, id) order."""

    @abstractmethod
    async def near_duplicates(
        self, batch: Sequence[Changed], threshold: float, neighbours: int
    ) -> list[NearPair]:
        """Pairs of one owner, a batch memory and one of its `neighbours` nearest, with
        cosine at or above `threshold`; both current (not superseded), neither a cluster's
        summary, both embedded by the same model."""

    @abstractmethod
    async def weave(
        self, batch: Sequence[Changed], now: datetime, weight: float, max_share: float
    ) -> int:
        """Narrative edges, earlier -> later, between the conversation memories (a
        conversation's turns and segments: what was said at a time) that mention the same
        entity as a batch memory does, consecutive in time; a name too common to single
        memories out (more than `max_share` of the owner's memories mention it, and more
        than entity recall's floor) is passed over. Edges already there stay as they
        are. The edges added."""

    @abstractmethod
    async def advance(self, marks: Mapping[Owner, tuple[datetime, UUID]]) -> None:
        """Move these owners' watermarks (never back)."""

    @abstractmethod
    async def prune(
        self, reach: Reach, now: datetime, min_strength: float,
        half_lives: Mapping[str, float],
    ) -> int:
        """Delete the edges of these kinds (half-life in days) whose strength at `now` is
        below `min_strength`; the edges deleted."""


class SleepStep(Protocol):
    """A further step of the cycle (the clusters), run over the reach after the batches and
    before pruning; what it did, in the cycle's report."""

    async def __call__(self, reach: Reach, now: datetime) -> SleepReport: ...
