"""FakeFadedMemories: an in-memory FadedMemoriesPort over the shared FakeMemoryTable."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from memlane.domain.memories.cleanup import CleanupRule
from memlane.domain.model import Owner
from memlane.domain.reach import Reach, covers
from memlane.ports.memories.faded import FadedMemoriesPort
from tests.fakes.memory_table import FakeMemoryTable


class FakeFadedMemories(FadedMemoriesPort):
    """The rows the cleanup rule lets go, as the cleanup of FakeMaintenance judges them."""

    def __init__(self, table: FakeMemoryTable) -> None:
        self._table = table

    async def owners(
        self, owner: Reach, rule: CleanupRule, now: datetime, base_rate: float
    ) -> list[Owner]:
        scope = [(o, rows) for o, rows in self._table._rows.items() if covers(owner, o)]
        return sorted(
            (o for o, rows in scope
             if any(self._table._may_clean_up(r, rule, now, base_rate) for r in rows.values())),
            key=lambda o: (o.tenant, o.user_id),
        )

    async def delete(
        self, owner: Owner, rule: CleanupRule, now: datetime, base_rate: float
    ) -> list[UUID]:
        rows = self._table._rows.get(owner, {})
        doomed = sorted(
            i for i, r in rows.items() if self._table._may_clean_up(r, rule, now, base_rate)
        )
        return sorted(self._table.remove(owner, doomed))
