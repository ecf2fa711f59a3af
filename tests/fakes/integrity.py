"""FakeIntegrity: IntegrityPort over the shared FakeMemoryTable, with an in-memory quarantine."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

from memlane.domain.model import Owner, StoredMemory
from memlane.domain.security.integrity import RowKey, UnreadableRow
from memlane.ports.security.integrity import IntegrityPort
from tests.fakes.memory_table import FakeMemoryTable


def _key(row: StoredMemory) -> RowKey:
    return (row.owner.tenant, row.owner.user_id, row.id)


class FakeIntegrity(IntegrityPort):
    """Scans every owner in (tenant, user_id, id) order; quarantined rows leave the table."""

    def __init__(self, table: FakeMemoryTable) -> None:
        self._table = table
        self.quarantined: dict[tuple[Owner, UUID], tuple[StoredMemory, tuple[str, ...]]] = {}

    async def sealed_batch(self, after: RowKey | None, limit: int) -> list[StoredMemory]:
        rows = sorted(self._table._all(None), key=_key)
        if after is not None:
            rows = [r for r in rows if _key(r) > after]  # UUIDs order by their bytes, as in SQL
        return [self._table._copy(r) for r in rows[:limit]]

    async def quarantine(self, rows: Sequence[UnreadableRow], now: datetime) -> int:
        moved = 0
        for row in rows:
            found = self._table._rows.get(row.owner, {}).get(row.memory_id)
            if found is not None:
                self._table.remove(row.owner, [row.memory_id])
            if found is None or (row.owner, row.memory_id) in self.quarantined:
                continue
            self.quarantined[(row.owner, row.memory_id)] = (found, row.fields)
            moved += 1
        return moved
