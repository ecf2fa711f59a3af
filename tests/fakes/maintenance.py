"""FakeMaintenance: an in-memory MaintenancePort computing decay with the domain's formula."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from statistics import fmean
from uuid import UUID

from memlane.domain.memories.cleanup import CleanupRule
from memlane.domain.memories.decay import accessed, importance_at
from memlane.domain.model import MemoryStats, Owner, StoredMemory, Vector
from memlane.domain.reach import Reach, covers
from memlane.ports.memories.maintenance import MaintenancePort
from tests.fakes.memory_table import FakeMemoryTable, position


class FakeMaintenance(MaintenancePort):
    """Maintenance over the shared FakeMemoryTable; `available` answers readiness."""

    def __init__(self, table: FakeMemoryTable) -> None:
        self._table = table
        self.available = True

    async def stats(self, owner: Reach, now: datetime, base_rate: float) -> MemoryStats:
        rows = self._table._all(owner)
        return MemoryStats(
            total=len(rows),
            by_type=dict(Counter(r.memory_type.value for r in rows)),
            with_embeddings=sum(r.embedding is not None for r in rows),
            avg_importance=fmean(importance_at(r.heat, r.memory_type, now, base_rate) for r in rows)
            if rows
            else 0.0,
        )

    async def record_access(
        self, owner: Owner, memory_ids: Sequence[UUID], now: datetime, base_rate: float
    ) -> int:
        rows = self._table._rows.get(owner, {})
        count = 0
        for memory_id in dict.fromkeys(memory_ids):
            row = rows.get(memory_id)
            if row is None:
                continue
            heat = accessed(row.heat, row.memory_type, now, base_rate)
            rows[memory_id] = replace(
                row, heat=heat, importance=importance_at(heat, row.memory_type, now, base_rate)
            )
            count += 1
        return count

    async def materialise_decay(
        self, owner: Reach, now: datetime, base_rate: float
    ) -> int:
        changed = 0
        for rows in self._table._scope(owner):
            for memory_id, row in list(rows.items()):
                value = importance_at(row.heat, row.memory_type, now, base_rate)
                if value != row.importance:
                    rows[memory_id] = replace(row, importance=value)
                    changed += 1
        return changed

    async def cleanup(
        self, owner: Reach, rule: CleanupRule, now: datetime, base_rate: float
    ) -> int:
        deleted = 0
        for key, rows in list(self._table._rows.items()):
            if not covers(owner, key):
                continue
            doomed = [
                i for i, r in rows.items() if self._table._may_clean_up(r, rule, now, base_rate)
            ]
            deleted += len(self._table.remove(key, doomed))
        return deleted

    async def missing_embeddings(self, limit: int) -> list[StoredMemory]:
        rows = sorted((r for r in self._table._all(None) if r.embedding is None), key=position)
        return [self._table._copy(r) for r in rows[:limit]]

    async def set_embeddings(self, items: Sequence[tuple[Owner, UUID, Vector]], model: str) -> int:
        count = 0
        for owner, memory_id, vector in items:
            self._table._check_vector(vector)
            rows = self._table._rows.get(owner, {})
            if memory_id in rows:
                rows[memory_id] = replace(
                    rows[memory_id], embedding=tuple(vector), embedding_model=model
                )
                count += 1
        return count

    async def ready(self) -> bool:
        return self.available
