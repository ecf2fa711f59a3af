"""FakeFadedMemories: an in-memory FadedMemoriesPort over the shared FakeMemoryTable."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from memlane.domain.memories.decay import importance_at
from memlane.domain.model import Owner, StoredMemory
from memlane.domain.reach import Reach, covers
from memlane.ports.memories.faded import FadedMemoriesPort
from tests.fakes.memory_table import FakeMemoryTable


def _faded(row: StoredMemory, min_importance: float, now: datetime, base_rate: float) -> bool:
    return not row.pinned and importance_at(
        row.heat, row.memory_type, now, base_rate
    ) <= min_importance


class FakeFadedMemories(FadedMemoriesPort):
    """The faded rows, as the cleanup of FakeMaintenance judges them."""

    def __init__(self, table: FakeMemoryTable) -> None:
        self._table = table

    async def owners(
        self, owner: Reach, min_importance: float, now: datetime, base_rate: float
    ) -> list[Owner]:
        scope = [(o, rows) for o, rows in self._table._rows.items() if covers(owner, o)]
        return sorted(
            (o for o, rows in scope
             if any(_faded(r, min_importance, now, base_rate) for r in rows.values())),
            key=lambda o: (o.tenant, o.user_id),
        )

    async def delete(
        self, owner: Owner, min_importance: float, now: datetime, base_rate: float
    ) -> list[UUID]:
        rows = self._table._rows.get(owner, {})
        doomed = sorted(i for i, r in rows.items() if _faded(r, min_importance, now, base_rate))
        return sorted(self._table.remove(owner, doomed))
