"""Exports and imports of an owner: the whole export, and the graph and facts of a partial one."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import Any
from uuid import UUID

from memlane.domain.model import Owner
from memlane.ports.clock import Clock
from memlane.service.portability.facts import FactPorting
from memlane.service.portability.graph import GraphPorting
from memlane.service.portability.porting import ImportReport, Porting


class Exports:
    """What `memlane export`/`import`, GET /v1/memories/export and the MCP tools carry.
    Without `graph` or `facts` (either off), those records are neither written nor read."""

    def __init__(
        self,
        everything: Porting,
        clock: Clock,
        graph: GraphPorting | None = None,
        facts: FactPorting | None = None,
    ) -> None:
        self._everything = everything
        self._clock = clock
        self._graph = graph
        self._facts = facts

    async def graph_records(
        self, owner: Owner, memory_ids: Sequence[UUID]
    ) -> AsyncIterator[dict[str, Any]]:
        """The edges and entities of exported memories, then the owner's facts, as portable
        records."""
        if self._graph is not None:
            async for record in self._graph.records(owner, memory_ids):
                yield record
        if self._facts is not None:
            async for record in self._facts.records(owner):
                yield record

    async def import_graph(
        self, owner: Owner, records: Sequence[Mapping[str, Any]], ids: Mapping[UUID, UUID]
    ) -> tuple[int, int]:
        """Edges and entities of an export, between the memories its ids became; how
        many edges and mentions were stored."""
        if self._graph is None:
            return 0, 0
        return await self._graph.restore(owner, records, ids, self._clock())

    async def import_facts(
        self, owner: Owner, records: Sequence[Mapping[str, Any]], ids: Mapping[UUID, UUID]
    ) -> int:
        """The fact records of an export, their sources the memories its ids became; how
        many facts were stored (facts already held are skipped)."""
        if self._facts is None:
            return 0
        return (await self._facts.restore(owner, records, ids)).stored

    def records(self, owner: Owner) -> AsyncIterator[dict[str, Any]]:
        """The owner's whole export as portable records: memories with their histories,
        edges, entities, facts with their histories."""
        return self._everything.records(owner)

    async def import_records(
        self, owner: Owner, records: Sequence[Mapping[str, Any]],
        progress: Callable[[int], object] | None = None,
    ) -> ImportReport:
        """Restore an export under its own ids (what the owner holds is skipped); every
        record is checked first; `progress` hears how many memories each batch handled."""
        return await self._everything.restore(owner, records, progress)
