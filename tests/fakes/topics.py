"""FakeTopics: an in-memory TopicPort over the shared FakeMemoryTable."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from uuid import UUID

from memlane.domain.facts.topic_index import TopicTally
from memlane.domain.model import Owner, StoredMemory
from memlane.ports.facts.topics import TopicPort
from tests.fakes.memory_table import FakeMemoryTable


class FakeTopics(TopicPort):
    def __init__(self, table: FakeMemoryTable) -> None:
        self._table = table

    def _newest_first(self, owner: Owner) -> list[StoredMemory]:
        rows = sorted(self._table._rows.get(owner, {}).values(),
                      key=lambda r: (r.created_at, r.id), reverse=True)
        return [replace(self._table._copy(r), embedding=None, keywords=()) for r in rows]

    async def carrying(self, owner: Owner, token: str) -> list[StoredMemory]:
        return [r for r in self._newest_first(owner)
                if r.topic_tokens is None or token in r.topic_tokens]

    async def untokened(self, owner: Owner) -> list[StoredMemory]:
        return [r for r in self._newest_first(owner) if r.topic_tokens is None]

    async def tallies(self, owner: Owner) -> list[TopicTally]:
        found: dict[str, TopicTally] = {}
        for row in reversed(self._newest_first(owner)):  # oldest first: the last one is newest
            for token in set(row.topic_tokens or ()):
                held = found.get(token)
                found[token] = TopicTally(token, 1 + (held.count if held else 0),
                                          row.created_at, row.id)
        return sorted(found.values(), key=lambda t: (t.last_activity, t.newest), reverse=True)

    async def memories(self, owner: Owner, ids: Sequence[UUID]) -> list[StoredMemory]:
        wanted = set(ids)
        return [r for r in self._newest_first(owner) if r.id in wanted]
