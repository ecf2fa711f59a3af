"""What lies around a context's focus in the graph: one hop out as abstracts, further out
as territories and importances to count (the level-of-detail block's outer layers)."""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID

from memlane.domain.errors import DecryptionFailed
from memlane.domain.graph import Edge
from memlane.domain.memories import importance_at
from memlane.domain.model import MemoryType, Owner, StoredMemory
from memlane.ports.graph import GraphPort
from memlane.ports.memories import CandidateSearchPort, MemoryStorePort
from memlane.service.security import Sealer, tiers_of

# Two hops out can be many memories (a hub's links): at most this many are counted.
MAX_COUNTED = 200


@dataclass(frozen=True, slots=True)
class Neighbour:
    """A memory one hop from the focus, as its abstract."""

    id: UUID
    memory_type: MemoryType
    abstract: str


@dataclass
class Surroundings:
    """One hop out (strongest link first) and, further out, (territory, importance) each."""

    near: list[Neighbour] = field(default_factory=list)
    further: list[tuple[str, float]] = field(default_factory=list)


class Surrounding:
    """Reads the focus's neighbourhood in three statements: edges one hop out, their rows
    (opened for the abstracts), edges and lean rows two hops out."""

    def __init__(
        self,
        graph: GraphPort,
        store: MemoryStorePort,
        search: CandidateSearchPort,
        sealer: Sealer,
        base_rate: float,
    ) -> None:
        self._graph = graph
        self._store = store
        self._search = search
        self._sealer = sealer
        self._base_rate = base_rate

    async def around(
        self, owner: Owner, focus: Collection[UUID], shown: Collection[UUID], near_limit: int,
        now: datetime,
    ) -> Surroundings:
        found = Surroundings()
        if not focus:
            return found
        taken = set(focus) | set(shown)
        first = _others(await self._graph.edges_of(owner, list(focus)), taken)
        if not first:
            return found
        # Counted: the one-hop memories past the lines shown, and two hops out through the
        # ones shown (walking out of every one-hop memory reads a hub's thousands of edges).
        # The shown ones' rows and their edges are read at once.
        shown_near = first[:near_limit]
        rows, edges = await asyncio.gather(
            self._store.get_many(owner, shown_near, indexed=False),
            self._graph.edges_of(owner, shown_near),
        )
        by_id = {row.id: row for row in rows}
        for memory_id in shown_near:
            row = by_id.get(memory_id)
            abstract = None if row is None else self._abstract(row, now)
            if row is not None and abstract is not None:
                found.near.append(Neighbour(row.id, row.memory_type, abstract))
        second = _others(edges, taken | set(first))
        further = (first[near_limit:] + second)[:MAX_COUNTED]
        lean = await self._search.candidates_by_id(owner, further, None) if further else []
        found.further = [
            (c.traits.domain.value if c.traits is not None else c.memory_type.value,
             importance_at(c.heat, c.memory_type, now, self._base_rate))
            for c in lean
        ]
        return found

    def _abstract(self, row: StoredMemory, now: datetime) -> str | None:
        """A row's abstract: only it opened when stored, else derived from the opened
        content (a memory stored before tiers); None when it does not decrypt."""
        try:
            stored = self._sealer.open_abstract(row)
        except DecryptionFailed:
            stored = None
        if stored is not None:
            return stored
        memory = self._sealer.readable(row, now)
        return None if memory is None else tiers_of(memory).abstract


def _others(edges: Sequence[Edge], taken: Collection[UUID]) -> list[UUID]:
    """The far ends of these edges not already taken, strongest link first, once each."""
    best: dict[UUID, float] = {}
    for edge in edges:
        for end in (edge.source, edge.target):
            if end not in taken:
                best[end] = max(best.get(end, 0.0), edge.weight)
    return sorted(best, key=lambda i: (-best[i], str(i)))
