"""GraphPort: the typed, weighted edges between one owner's memories."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Sequence
from datetime import datetime
from uuid import UUID

from memlane.domain.graph import Edge, EdgeKind, Moment, Walk
from memlane.domain.model import Owner


class GraphPort(ABC):
    """Edges per owner; a memory's deletion takes its edges with it."""

    @abstractmethod
    async def add_edges(self, owner: Owner, edges: Sequence[Edge], *, cap_per_node: int) -> int:
        """Store new edges (an existing edge of the same source, target and kind keeps the
        stronger weight). Semantic edges beyond `cap_per_node` per node, either end, are
        removed weakest first. Edges naming another owner's or a missing memory are
        skipped. Returns how many were stored."""

    @abstractmethod
    async def use_edges(
        self, owner: Owner, keys: Sequence[tuple[UUID, UUID, EdgeKind]], now: datetime
    ) -> int:
        """The edges (source, target, kind) were used at `now`: each becomes what
        `graph.used` makes of it (strength then + USE_BOOST, capped at 1), in one write that
        may be deferred off the request. How many uses were taken; a missing edge is none."""

    @abstractmethod
    async def edges_of(
        self,
        owner: Owner,
        memory_ids: Collection[UUID],
        kinds: Collection[EdgeKind] | None = None,
    ) -> list[Edge]:
        """Every edge of the owner touching one of these memories, either end."""

    @abstractmethod
    async def neighbourhood(self, owner: Owner, walk: Walk) -> list[Edge]:
        """The owner's edges that spreading activation walks from `walk.seeds`, as
        `activation_walk.walked` defines them, in one read."""

    @abstractmethod
    async def remove_edge(
        self, owner: Owner, source: UUID, target: UUID, kind: EdgeKind | None
    ) -> int:
        """Delete the edge(s) source -> target (of `kind`, or of every kind); how many."""

    @abstractmethod
    async def predecessors(self, owner: Owner, moments: Sequence[Moment]) -> dict[UUID, Moment]:
        """For each moment, the owner's memory said just before it (by created_at, then id),
        if there is one: where a temporal edge may start."""
