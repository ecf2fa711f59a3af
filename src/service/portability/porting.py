"""An owner's whole export (memories with histories, graph, facts) out as records and back in."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from memlane.domain.errors import InvalidMemory
from memlane.domain.model import Memory, Owner
from memlane.domain.portability import (
    FACT,
    MEMORY,
    Restored,
    check_graph_record,
    memory_to_record,
    record_type,
)
from memlane.ports.clock import Clock
from memlane.service.portability.facts import FactPorting
from memlane.service.portability.graph import GraphPorting
from memlane.service.portability.history import with_history
from memlane.service.portability.memories import MemoryPorting, PortableMemory
from memlane.service.security import AuditTrail

BATCH = 256  # memories embedded and stored per unit of work


@dataclass(frozen=True, slots=True)
class ImportReport:
    """What an import stored and what it skipped because the owner already held that id."""

    memories: Restored
    edges: int
    mentions: int
    facts: Restored

    def as_dict(self) -> dict[str, int]:
        return {
            "memories_stored": self.memories.stored, "memories_skipped": self.memories.skipped,
            "edges": self.edges, "mentions": self.mentions,
            "facts_stored": self.facts.stored, "facts_skipped": self.facts.skipped,
        }


class Porting:
    """Export and import of everything an owner has, as `memlane export`/`import` and
    GET /v1/memories/export carry it."""

    def __init__(
        self,
        memories: MemoryPorting,
        every: Callable[[Owner], AsyncIterator[Memory]],
        trail: AuditTrail,
        clock: Clock,
        graph: GraphPorting | None = None,
        facts: FactPorting | None = None,
    ) -> None:
        self._memories = memories
        self._every = every  # MemoryService.export: every memory, opened, oldest first
        self._trail = trail
        self._clock = clock
        self._graph = graph
        self._facts = facts

    async def records(self, owner: Owner) -> AsyncIterator[dict[str, Any]]:
        """The memories (each with its history), the graph between them, then the facts
        (each with its history). Histories are read first, in one streamed pass."""
        histories = await self._trail.histories(owner)
        ids: list[UUID] = []
        async for memory in self._every(owner):
            ids.append(memory.id)
            yield with_history(memory_to_record(memory), memory.id, histories)
        if self._graph is not None:
            async for record in self._graph.records(owner, ids):
                yield record
        if self._facts is not None:
            async for record in self._facts.records(owner):
                yield with_history(record, UUID(record["id"]), histories)

    def check(
        self, owner: Owner, records: Sequence[Mapping[str, Any]]
    ) -> tuple[list[PortableMemory], list[Mapping[str, Any]]]:
        """Every record checked before anything is stored: the memories read, the rest
        (edges, entities, facts) validated; InvalidMemory names the record (from 1)."""
        now = self._clock()
        memories: list[PortableMemory] = []
        rest: list[Mapping[str, Any]] = []
        for number, record in enumerate(records, start=1):
            try:
                if record_type(record) == MEMORY:
                    memories.append(self._memories.read(owner, record, now))
                else:
                    check_graph_record(record)
                    rest.append(record)
            except InvalidMemory as exc:
                raise InvalidMemory(f"record {number}: {exc}") from exc
        return memories, rest

    async def restore(
        self,
        owner: Owner,
        records: Sequence[Mapping[str, Any]],
        progress: Callable[[int], object] | None = None,
    ) -> ImportReport:
        """Store an export under its own ids; what the owner already holds is skipped, so
        importing a file twice, or again after a failure part way, adds each thing once."""
        memories, rest = self.check(owner, records)
        stored = skipped = 0
        for start in range(0, len(memories), BATCH):
            batch = memories[start : start + BATCH]
            done = await self._memories.restore(owner, batch)
            stored, skipped = stored + done.stored, skipped + done.skipped
            if progress is not None:
                progress(len(batch))
        # Ids are kept: every exported memory is the memory of the same id now.
        ids = {p.memory.id: p.memory.id for p in memories}
        edges = mentions = 0
        if self._graph is not None:
            edges, mentions = await self._graph.restore(owner, rest, ids, self._clock())
        facts = Restored()
        if self._facts is not None:
            facts = await self._facts.restore(owner, [r for r in rest if record_type(r) == FACT],
                                              ids)
        return ImportReport(Restored(stored, skipped), edges, mentions, facts)
