"""FakeTopics: an in-memory TopicPort over the shared FakeMemoryTable."""

from __future__ import annotations

from dataclasses import replace

from memlane.domain.model import Owner, StoredMemory
from memlane.ports.topics import TopicPort
from tests.fakes.memory_table import FakeMemoryTable


class FakeTopics(TopicPort):
    def __init__(self, table: FakeMemoryTable) -> None:
        self._table = table

    async def memories(self, owner: Owner) -> list[StoredMemory]:
        rows = sorted(self._table._rows.get(owner, {}).values(),
                      key=lambda r: (r.created_at, str(r.id)), reverse=True)
        return [replace(self._table._copy(r), embedding=None, keywords=()) for r in rows]
