"""MemoryService's export and import: an owner's memories, histories, graph and facts as records."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import Any
from uuid import UUID

from memlane.domain.model import Owner
from memlane.service.memories.reads import MemoryReads
from memlane.service.portability.graph import GraphPorting
from memlane.service.portability.porting import ImportReport, Porting
from memlane.service.security.keyring import keyed, keyed_stream


class MemoryExports(MemoryReads):
    """Export and import of MemoryService, through the porting parts."""

    _porting: GraphPorting | None
    _everything: Porting

    @keyed_stream
    async def export_graph(
        self, owner: Owner, memory_ids: Sequence[UUID]
    ) -> AsyncIterator[dict[str, Any]]:
        """The edges and entities of exported memories, then the owner's facts, as portable
        records."""
        if self._porting is not None:
            async for record in self._porting.records(owner, memory_ids):
                yield record
        if self._facts is not None:
            async for record in self._facts.porting.records(owner):
                yield record

    @keyed
    async def import_graph(
        self, owner: Owner, records: Sequence[Mapping[str, Any]], ids: Mapping[UUID, UUID]
    ) -> tuple[int, int]:
        """Edges and entities of an export, between the memories its ids became; how
        many edges and mentions were stored."""
        if self._porting is None:
            return 0, 0
        return await self._porting.restore(owner, records, ids, self._clock())

    @keyed
    async def import_facts(
        self, owner: Owner, records: Sequence[Mapping[str, Any]], ids: Mapping[UUID, UUID]
    ) -> int:
        """The fact records of an export, their sources the memories its ids became; how
        many facts were stored (facts already held are skipped)."""
        if self._facts is None:
            return 0
        return (await self._facts.porting.restore(owner, records, ids)).stored

    @keyed_stream
    async def export_records(self, owner: Owner) -> AsyncIterator[dict[str, Any]]:
        """The owner's whole export as portable records: memories with their histories,
        edges, entities, facts with their histories."""
        async for record in self._everything.records(owner):
            yield record

    @keyed
    async def import_records(
        self, owner: Owner, records: Sequence[Mapping[str, Any]],
        progress: Callable[[int], object] | None = None,
    ) -> ImportReport:
        """Restore an export under its own ids (what the owner holds is skipped); every
        record is checked first; `progress` hears how many memories each batch handled."""
        return await self._everything.restore(owner, records, progress)
