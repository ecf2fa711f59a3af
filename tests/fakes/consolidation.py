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

    async def delete_sources(self, owner: Owner, memory_ids: Sequence[UUID]) -> list[UUID]:
        return self._table.remove(owner, memory_ids)
