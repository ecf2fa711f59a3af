"""FakeLegacyRows: LegacyRowsPort over in-memory memories (live, quarantined) and facts."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar
from uuid import UUID

from memlane.domain.facts.model import RELATION_TYPES
from memlane.domain.portability.legacy_rows import (
    LegacyRelation,
    LegacyRow,
    SealedRelation,
    SealedRow,
)
from memlane.domain.security.integrity import RowKey
from memlane.ports.portability.legacy_rows import LegacyRowsPort

R = TypeVar("R", LegacyRow, LegacyRelation)


def _key(row: LegacyRow | LegacyRelation) -> RowKey:
    return (row.owner.tenant, row.owner.user_id,
            row.memory_id if isinstance(row, LegacyRow) else row.fact_id)


def _after(rows: Iterable[R], after: RowKey | None, limit: int) -> list[R]:
    """A keyset page: (tenant, user_id, id) order, UUIDs by their bytes as in SQL."""
    ordered = sorted(rows, key=_key)
    return [r for r in ordered if after is None or _key(r) > after][:limit]


class FakeLegacyRows(LegacyRowsPort):
    """Unsealed rows sit in `live`, `quarantine` and `relations`; sealing moves them to
    `sealed` (memories) and `sealed_relations` (facts), as the columns change in SQL."""

    def __init__(self) -> None:
        self.live: dict[UUID, LegacyRow] = {}
        self.quarantine: dict[UUID, LegacyRow] = {}
        self.sealed: dict[UUID, SealedRow] = {}
        self.relations: dict[UUID, LegacyRelation] = {}
        self.sealed_relations: dict[UUID, SealedRelation] = {}

    def _table(self, quarantined: bool) -> dict[UUID, LegacyRow]:
        return self.quarantine if quarantined else self.live

    async def legacy_batch(
        self, after: RowKey | None, limit: int, *, quarantined: bool = False
    ) -> list[LegacyRow]:
        return _after(self._table(quarantined).values(), after, limit)

    async def store_sealed(self, rows: Sequence[SealedRow], *, quarantined: bool = False) -> int:
        table = self._table(quarantined)
        done = 0
        for row in rows:
            if table.pop(row.memory_id, None) is not None:
                self.sealed[row.memory_id] = row
                done += 1
        return done

    def _own_words(self) -> list[LegacyRelation]:
        return [r for r in self.relations.values()
                if r.relation not in RELATION_TYPES and not r.relation.startswith("custom_")]

    async def legacy_relations(self, after: RowKey | None, limit: int) -> list[LegacyRelation]:
        return _after(self._own_words(), after, limit)

    async def store_relations(self, rows: Sequence[SealedRelation]) -> int:
        done = 0
        for row in rows:
            held = self.relations.get(row.fact_id)
            if held is not None and held.relation == row.relation:
                del self.relations[row.fact_id]
                self.sealed_relations[row.fact_id] = row
                done += 1
        return done

    async def count_legacy(self) -> int:
        return len(self.live) + len(self.quarantine)

    async def count_legacy_relations(self) -> int:
        return len(self._own_words())
