"""FakeFacts: an in-memory FactPort over a FakeMemoryTable, with the adapter's semantics."""

from __future__ import annotations

import builtins
from collections.abc import Collection, Sequence
from dataclasses import replace
from datetime import datetime
from uuid import UUID

from memlane.domain.facts.model import keeps_its_memory
from memlane.domain.facts.records import FactFilter, StoredFact
from memlane.domain.model import Cursor, Owner, Page
from memlane.ports.facts.store import FactPort
from tests.fakes.chains import head_past
from tests.fakes.memory_table import FakeMemoryTable


def _current(fact: StoredFact, now: datetime) -> bool:
    return fact.superseded_by is None and (fact.valid_until is None or fact.valid_until > now)


class FakeFacts(FactPort):
    """Facts per owner; a fact whose source memory left the table is gone, as by the
    trigger, and what a deleted fact superseded points on to its successor, as by the other."""

    def __init__(self, table: FakeMemoryTable) -> None:
        self._table = table
        self._facts: dict[Owner, dict[UUID, StoredFact]] = {}
        table.key_facts = self._keeps

    def _keeps(self, owner: Owner, memory_id: UUID, now: datetime) -> bool:
        """Whether a current fact read from the memory keeps it from cleanup."""
        return any(
            f.source_memory_id == memory_id and _current(f, now)
            and keeps_its_memory(f.relation, f.fact_type)
            for f in self._facts.get(owner, {}).values()
        )

    def _live(self, owner: Owner) -> dict[UUID, StoredFact]:
        rows = self._table._rows.get(owner, {})
        facts = self._facts.setdefault(owner, {})
        moves = self._table.moved_sources.pop(owner, {})
        for fact_id, fact in list(facts.items()):
            if fact.source_memory_id in moves:
                facts[fact_id] = replace(fact, source_memory_id=moves[fact.source_memory_id])
        orphans = [
            i for i, f in facts.items()
            if f.source_memory_id is not None and f.source_memory_id not in rows
        ]
        self._remove(owner, orphans)
        return facts

    def _remove(self, owner: Owner, ids: Collection[UUID]) -> None:
        facts = self._facts.setdefault(owner, {})
        gone = {i: facts.pop(i) for i in ids if i in facts}
        for fact_id, fact in list(facts.items()):
            head = head_past(fact.superseded_by, gone)
            if head != fact.superseded_by:
                facts[fact_id] = replace(fact, superseded_by=head)

    async def get(self, owner: Owner, fact_id: UUID) -> StoredFact | None:
        return self._live(owner).get(fact_id)

    async def list(
        self, owner: Owner, filters: FactFilter, cursor: Cursor | None, limit: int, now: datetime
    ) -> Page[StoredFact]:
        chosen = sorted(
            (
                f for f in self._live(owner).values()
                if (filters.fact_type is None or f.fact_type is filters.fact_type)
                and (filters.current is None or _current(f, now) == filters.current)
                and (cursor is None or (f.created_at, f.id) < (cursor.created_at, cursor.id))
            ),
            key=lambda f: (f.created_at, f.id), reverse=True,
        )
        items = chosen[:limit]
        more = len(chosen) > limit
        return Page(items, Cursor(items[-1].created_at, items[-1].id) if more else None)

    async def current(
        self,
        owner: Owner,
        now: datetime,
        *,
        relations: Collection[str] | None = None,
        sources: Collection[UUID] | None = None,
    ) -> builtins.list[StoredFact]:
        return [
            f for f in self._live(owner).values()
            if _current(f, now)
            and (relations is None or f.relation in relations)
            and (sources is None or f.source_memory_id in sources)
        ]

    async def save(
        self, owner: Owner, new: Sequence[StoredFact], ended: Sequence[StoredFact],
        *, derived: bool = False,
    ) -> int:
        live = self._live(owner)
        rows = self._table._rows.get(owner, {})
        inserted = 0
        for fact in new:
            if fact.source_memory_id is None or fact.source_memory_id in rows:
                live[fact.id] = fact
                inserted += 1
        for fact in ended:
            if fact.id in live:
                live[fact.id] = fact
        return inserted

    async def update(self, stored: StoredFact) -> bool:
        live = self._live(stored.owner)
        if stored.id not in live:
            return False
        live[stored.id] = stored
        return True

    async def delete(self, owner: Owner, fact_id: UUID) -> bool:
        if fact_id not in self._live(owner):
            return False
        self._remove(owner, [fact_id])
        return True

    async def revive(
        self, owner: Owner, *, facts: Collection[UUID] = (), sources: Collection[UUID] = (),
        ended_of: Collection[UUID] = (), since: datetime | None = None,
    ) -> builtins.list[StoredFact]:
        live = self._live(owner)
        replacing = {
            i for i, f in live.items()
            if f.superseded_by is None and (i in facts or f.source_memory_id in sources)
        }
        revived = []
        for fact_id, fact in sorted(live.items()):
            with_memory = (
                since is not None and fact.source_memory_id in ended_of
                and fact.superseded_by is None and fact.valid_until is not None
                and fact.valid_until >= since
            )
            if fact.superseded_by in replacing or with_memory:
                live[fact_id] = replace(fact, valid_until=None, superseded_by=None)
                revived.append(live[fact_id])
        return revived

    async def delete_all(self, owner: Owner) -> int:
        live = self._live(owner)
        count = len(live)
        live.clear()
        return count


def fake_facts_for(ports: object) -> FakeFacts:
    """FakeFacts over the same table as `fake_memory_ports(...)`'s fakes."""
    return FakeFacts(ports.store._table)  # type: ignore[attr-defined]
