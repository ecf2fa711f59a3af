"""FakeConsolidation: an in-memory ConsolidationPort over the shared FakeMemoryTable."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from memlane.domain.model import Owner
from memlane.ports.memories.consolidation import ConsolidationPort
from tests.fakes.memory_table import FakeMemoryTable


class FakeConsolidation(ConsolidationPort):
    def __init__(self, table: FakeMemoryTable) -> None:
        self._table = table

    async def delete_sources(
        self, owner: Owner, memory_ids: Sequence[UUID], into: UUID | None = None
    ) -> list[UUID]:
        if into is not None and into in self._table._rows.get(owner, {}):
            # FakeFacts reads these moves before it drops the facts of deleted memories.
            moves = self._table.moved_sources.setdefault(owner, {})
            moves.update({i: into for i in memory_ids})
        return self._table.remove(owner, memory_ids)
