"""FakeSupersession: an in-memory SupersessionPort over the shared FakeMemoryTable."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace
from uuid import UUID

from memlane.domain.memories.corrections import Corrected, Replacement, newest_per_old
from memlane.domain.model import MemoryType, Owner
from memlane.ports.memories.supersession import SupersessionPort
from tests.fakes.memory_table import FakeMemoryTable


class FakeSupersession(SupersessionPort):
    """The marker on the fake rows; deletes repoint it in FakeMemoryTable.remove."""

    def __init__(self, table: FakeMemoryTable) -> None:
        self._table = table

    async def supersede(
        self, owner: Owner, replacements: Sequence[Replacement], *, said: bool = True
    ) -> tuple[list[UUID], list[UUID]]:
        rows = self._table._rows.get(owner, {})
        chosen = newest_per_old(replacements)
        current = sorted({
            r.new for r in chosen
            if said and r.new in rows and rows[r.new].valid_until is not None
        })
        for memory_id in current:
            rows[memory_id] = replace(rows[memory_id], superseded_by=None, valid_until=None)
        marked = []
        for r in chosen:
            row = rows.get(r.old)
            by = r.new if r.new is not None else (None if row is None else row.superseded_by)
            if row is None or (row.valid_until is not None and row.superseded_by == by):
                continue
            rows[r.old] = replace(
                row, superseded_by=r.new if r.new is not None else row.superseded_by,
                valid_until=row.valid_until or r.at,
            )
            marked.append(r.old)
        return sorted(marked), current

    async def retype(self, owner: Owner, corrections: Sequence[Corrected]) -> int:
        rows = self._table._rows.get(owner, {})
        done = 0
        for c in corrections:
            if c.memory_id in rows:
                rows[c.memory_id] = replace(
                    rows[c.memory_id], memory_type=MemoryType.CORRECTION, heat=c.heat,
                    importance=c.importance,
                )
                done += 1
        return done

    async def revive(
        self, owner: Owner, *, replaced_by: Collection[UUID] = (), ended: Collection[UUID] = ()
    ) -> list[UUID]:
        rows = self._table._rows.get(owner, {})
        revived = [
            i for i, row in rows.items() if row.valid_until is not None and (
                (row.superseded_by in replaced_by and row.superseded_by in rows
                 and rows[row.superseded_by].valid_until is None)
                or (row.superseded_by is None and i in ended))
        ]
        for memory_id in revived:
            rows[memory_id] = replace(rows[memory_id], superseded_by=None, valid_until=None)
        return sorted(revived)

    async def heads(self, owner: Owner, memory_ids: Collection[UUID]) -> dict[UUID, UUID]:
        rows = self._table._rows.get(owner, {})
        found: dict[UUID, UUID] = {}
        for memory_id in memory_ids:
            row = rows.get(memory_id)
            if row is None or row.superseded_by is None:
                continue
            head, seen = row.superseded_by, {memory_id}
            while head in rows and rows[head].superseded_by in rows and head not in seen:
                seen.add(head)
                head = rows[head].superseded_by  # type: ignore[assignment]
            found[memory_id] = head
        return found
