"""FakeTopicIndex: TopicIndexPort over the shared FakeMemoryTable (every owner's rows)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from memlane.domain.facts.topic_index import MemoryTopicTokens
from memlane.domain.model import StoredMemory
from memlane.domain.security.integrity import RowKey
from memlane.ports.facts.topic_index import TopicIndexPort
from tests.fakes.memory_table import FakeMemoryTable


def _key(row: StoredMemory) -> RowKey:
    return (row.owner.tenant, row.owner.user_id, row.id)


class FakeTopicIndex(TopicIndexPort):
    def __init__(self, table: FakeMemoryTable) -> None:
        self._table = table

    def _untokened(self) -> list[StoredMemory]:
        return sorted((r for r in self._table._all(None) if r.topic_tokens is None), key=_key)

    async def untokened_batch(self, after: RowKey | None, limit: int) -> list[StoredMemory]:
        rows = [r for r in self._untokened() if after is None or _key(r) > after][:limit]
        return [replace(self._table._copy(r), embedding=None, keywords=()) for r in rows]

    async def store_tokens(self, rows: Sequence[MemoryTopicTokens]) -> int:
        done = 0
        for row in rows:
            held = self._table._rows.get(row.owner, {}).get(row.memory_id)
            if held is not None and held.topic_tokens is None:
                self._table._rows[row.owner][row.memory_id] = replace(
                    held, topic_tokens=tuple(row.tokens))
                done += 1
        return done

    async def count_untokened(self) -> int:
        return len(self._untokened())
