"""ClusterPort: the summary nodes of the sleep cycle's clusters, grouped, kept and matched."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from memlane.domain.graph import Cluster, Edge, Regrouping
from memlane.domain.model import Owner, StoredMemory, Vector
from memlane.domain.reach import Reach


@dataclass(frozen=True, slots=True)
class ClusterHit:
    """A summary node near a question: its id, the cosine of its vector, its members."""

    id: UUID
    similarity: float
    members: tuple[UUID, ...]


@dataclass(frozen=True, slots=True)
class ClusterWrite:
    """One summary node to store: its sealed memory row, anchor, members and edges."""

    stored: StoredMemory
    anchor: UUID | None
    members: tuple[UUID, ...]
    edges: tuple[Edge, ...]


class ClusterPort(ABC):
    """Clusters per owner; a member's deletion takes its summaries with it."""

    @abstractmethod
    async def owners(self, reach: Reach, now: datetime, limit: int) -> list[Owner]:
        """Up to `limit` owners within `reach` with a memory (not a summary) written or
        edited after their clustering mark and before `now`, or with no mark and a memory."""

    @abstractmethod
    async def pairs(
        self, owners: Sequence[Owner], threshold: float, nearest: int, per_anchor: int,
        least: int, whole: int,
    ) -> dict[Owner, Regrouping]:
        """Per owner, the names to group again (those a memory written or edited since its
        mark mentions, every name without a mark, those of emptied clusters) and the pairs
        of current embedded memories (not summaries) mentioning each such name that at
        least `least` of them mention (of its `per_anchor` latest): every two of them when
        they are at most `whole`, else those each among the other's `nearest` of that
        name with cosine at or above `threshold`."""

    @abstractmethod
    async def clusters(self, owners: Sequence[Owner]) -> dict[Owner, list[Cluster]]:
        """The owners' summary nodes, each stale when a member was edited after it; an
        emptied one (its summary deleted with a member) has no members."""

    @abstractmethod
    async def save(
        self, owner: Owner, writes: Sequence[ClusterWrite], dropped: Sequence[UUID],
        now: datetime,
    ) -> None:
        """In one transaction: new summaries inserted, refreshed ones overwritten (row,
        members, edges: those to former members removed), dropped ones deleted; each saved
        one's vector the mean of its members' (NULL when they have none)."""

    @abstractmethod
    async def mark(self, marks: Mapping[Owner, datetime]) -> None:
        """These owners are grouped up to these times."""

    @abstractmethod
    async def nearest(
        self, owner: Owner, vector: Vector, model: str, limit: int
    ) -> list[ClusterHit]:
        """The owner's `limit` summary nodes nearest to `vector` (of `model`), best first."""
