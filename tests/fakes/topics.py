"""FakeTopics: an in-memory TopicPort over the shared FakeMemoryTable, by the domain's rules."""

from __future__ import annotations

from dataclasses import replace

from memlane.domain.model import Owner, StoredMemory
from memlane.domain.topics import TopicSummary, summarise, topic_key, topics_of
from memlane.ports.topics import TopicPort
from tests.fakes.memory_table import FakeMemoryTable


class FakeTopics(TopicPort):
    def __init__(self, table: FakeMemoryTable) -> None:
        self._table = table

    def _rows(self, owner: Owner) -> list[StoredMemory]:
        rows = list(self._table._rows.get(owner, {}).values())
        return sorted(rows, key=lambda r: (r.created_at, str(r.id)), reverse=True)

    async def memories_with(self, owner: Owner, topic: str) -> list[StoredMemory]:
        wanted = topic_key(topic)
        return [replace(self._table._copy(r), embedding=None, keywords=())
                for r in self._rows(owner)
                if wanted in {topic_key(t) for t in topics_of(r.tags, r.metadata)}]

    async def summaries(self, owner: Owner, limit: int) -> list[TopicSummary]:
        return summarise(
            (topics_of(r.tags, r.metadata), r.created_at) for r in self._rows(owner))[:limit]
