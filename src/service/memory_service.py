"""MemoryService: one facade over memlane's use cases; it delegates and builds nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Collection, Mapping, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from memlane.domain.errors import InvalidMemory
from memlane.domain.graph import Edge, EdgeKind
from memlane.domain.memories import AddedMessages, Consolidation, Message
from memlane.domain.model import (
    Cursor,
    Memory,
    MemoryContext,
    MemoryFilter,
    MemoryPatch,
    MemoryStats,
    NewMemory,
    Owner,
    Page,
    PromptContext,
    RememberResult,
    ScoredMemory,
)
from memlane.domain.policy import MemoryPolicy
from memlane.domain.reach import Reach
from memlane.domain.retrieval import ContextOptions
from memlane.service.facts import FactService, TopicService
from memlane.service.graph import GraphView, Neighbourhood
from memlane.service.memories import (
    Consolidated,
    Consolidator,
    Conversations,
    Editing,
    GateCounts,
    Maintenance,
    Prober,
    Reading,
    SleepCycle,
    Writer,
)
from memlane.service.portability import Exports, ImportReport
from memlane.service.retrieval import Retriever
from memlane.service.security import KeyringService, keyed, keyed_stream


class MemoryService:
    """Remember, recall, edit, forget; every call is scoped by an Owner (tenant + user), whose
    data key is made ready before the use case runs (`keyring` None: keys are not in play).
    composition/services.py builds it; without `graph`, `facts` or `topics` those calls
    answer InvalidMemory."""

    def __init__(
        self,
        *,
        policy: MemoryPolicy,
        reading: Reading,
        retriever: Retriever,
        writer: Writer,
        conversations: Conversations,
        editing: Editing,
        consolidator: Consolidator,
        exports: Exports,
        maintenance: Maintenance,
        keyring: KeyringService | None = None,
        graph: GraphView | None = None,
        facts: FactService | None = None,
        topics: TopicService | None = None,
        sleep: SleepCycle | None = None,
    ) -> None:
        self._policy = policy
        self._reading = reading
        self._retriever = retriever
        self._writer = writer
        self.probing: Prober | None = writer.prober  # the optional model probe (/metrics)
        self._conversations = conversations
        self._editing = editing
        self._consolidator = consolidator
        self._exports = exports
        self._maintenance = maintenance
        self._keyring = keyring
        self._graph = graph
        self._facts = facts
        self._topics = topics
        self._sleep = sleep

    @property
    def policy(self) -> MemoryPolicy:
        return self._policy

    @property
    def gate_counts(self) -> GateCounts | None:
        """The heuristic gate's decisions on conversation segments since start (/metrics)."""
        return self._conversations.gate_counts

    @property
    def facts(self) -> FactService:
        """The owner's facts and the views over them (profile, topics)."""
        if self._facts is None:
            raise InvalidMemory("this memlane runs without facts")
        return self._facts

    @property
    def topics(self) -> TopicService:
        """Topics of the owner's memories, with their facts (derived at read time)."""
        if self._topics is None:
            raise InvalidMemory("this memlane runs without facts or topic views")
        return self._topics

    @property
    def sleep(self) -> SleepCycle:
        """The sleep cycle (consolidation over a reach, from watermarks; docs/graph.md)."""
        if self._sleep is None:
            raise InvalidMemory("this memlane runs without the sleep cycle")
        return self._sleep

    def _graph_view(self) -> GraphView:
        if self._graph is None:
            raise InvalidMemory("this memlane runs without graph memory")
        return self._graph

    # -- reads -----------------------------------------------------------------------------
    @keyed
    async def get(self, owner: Owner, memory_id: UUID) -> Memory:
        return await self._reading.get(owner, memory_id)

    @keyed
    async def expand(self, owner: Owner, memory_ids: Sequence[UUID]) -> list[Memory]:
        """Memories read in full to show at a deeper tier; each counts as accessed."""
        return await self._reading.expand(owner, memory_ids)

    @keyed_stream
    async def export(self, owner: Owner) -> AsyncIterator[Memory]:
        """Every memory of the owner, oldest first, decrypted, streamed (one that does not
        decrypt is left out)."""
        async for memory in self._reading.export(owner):
            yield memory

    async def stats(self, owner: Reach) -> MemoryStats:
        return await self._reading.stats(owner)

    @keyed
    async def current_of(self, owner: Owner, memories: Sequence[Memory]) -> dict[UUID, UUID]:
        """For each superseded memory among these, the current one its chain leads to."""
        return await self._reading.current_of(owner, memories)

    @keyed
    async def search(
        self, owner: Owner, query: str, *, limit: int = 10, min_similarity: float | None = None,
        current: bool | None = None, asked_at: datetime | None = None,
    ) -> list[ScoredMemory]:
        """Hybrid (dense + lexical) search, best first by `score`; a superseded memory ranks
        below what replaced it (`current` True leaves it out). `asked_at`: when the question
        is asked, for the times it points at (None: now). Does not count as an access."""
        return await self._retriever.search(
            owner, query, limit=limit, min_similarity=min_similarity, current=current,
            asked_at=asked_at,
        )

    @keyed
    async def retrieve_context(
        self, owner: Owner, query: str, limit: int | None = None,
        options: ContextOptions | None = None,
    ) -> list[MemoryContext]:
        """The best memories for a prompt in type-priority order; records their access."""
        return await self._retriever.retrieve_context(owner, query, limit, options)

    @keyed
    async def prompt_context(
        self, owner: Owner, query: str, limit: int | None = None,
        options: ContextOptions | None = None,
    ) -> PromptContext:
        """The memories that fit the character budget and the rendered block; the block
        opens with the profile's core facts unless options.include_profile is off."""
        return await self._retriever.prompt_context(owner, query, limit, options)

    @keyed
    async def neighbourhood(
        self, owner: Owner, memory_id: UUID, depth: int = 1,
        kinds: Collection[EdgeKind] | None = None,
    ) -> Neighbourhood:
        """The memory and what lies within `depth` (1-3) edges of it, owner-scoped."""
        return await self._graph_view().neighbourhood(owner, memory_id, depth, kinds)

    # -- writes ----------------------------------------------------------------------------
    @keyed
    async def remember(self, owner: Owner, new: NewMemory) -> RememberResult:
        """Store one memory, or merge it into a near-duplicate (RememberResult.merged)."""
        return (await self._writer.remember_many(owner, [new]))[0]

    @keyed
    async def remember_many(
        self, owner: Owner, items: Sequence[NewMemory]
    ) -> list[RememberResult]:
        """Store a batch with one embedding call; duplicates within the batch merge too."""
        return await self._writer.remember_many(owner, items)

    @keyed
    async def add_messages(
        self, owner: Owner, conversation_id: str, messages: Sequence[Message],
        metadata: Mapping[str, Any] | None = None,
    ) -> AddedMessages:
        """Store a conversation's messages as segments (never merged), chained in order;
        `metadata` joins each segment's own."""
        return await self._conversations.add_messages(owner, conversation_id, messages, metadata)

    @keyed
    async def learn(
        self, owner: Owner, question: str, answer: str, *,
        conversation_id: str | None = None, tags: Sequence[str] = (),
        metadata: Mapping[str, Any] | None = None,
    ) -> RememberResult | None:
        """Remember a question/answer pair scored by the heuristics; None when too short."""
        return await self._writer.learn(
            owner, question, answer, conversation_id=conversation_id, tags=tags,
            metadata=metadata,
        )

    @keyed
    async def consolidate(self, owner: Owner, request: Consolidation) -> Consolidated:
        """One new memory in place of the sources (kept as superseded history, or deleted),
        linked to them and recorded on each, in one transaction."""
        return await self._consolidator.consolidate(owner, request)

    @keyed
    async def update(self, owner: Owner, memory_id: UUID, patch: MemoryPatch) -> Memory:
        """Edit fields; new content is re-embedded, new importance restarts the decay clock."""
        return await self._editing.update(owner, memory_id, patch)

    @keyed
    async def delete(self, owner: Owner, memory_id: UUID) -> None:
        await self._editing.delete(owner, memory_id)

    @keyed
    async def delete_all(self, owner: Owner) -> int:
        """Erase every memory of the owner and their facts, and their history down to
        tombstones; how many memories there were."""
        return await self._editing.delete_all(owner)

    @keyed
    async def connect(
        self, owner: Owner, source: UUID, target: UUID, kind: EdgeKind,
        weight: float | None = None,
    ) -> Edge:
        """State an edge (causal, temporal or narrative) between two of the owner's memories."""
        return await self._graph_view().connect(owner, source, target, kind, weight)

    @keyed
    async def disconnect(
        self, owner: Owner, source: UUID, target: UUID, kind: EdgeKind | None = None
    ) -> None:
        await self._graph_view().disconnect(owner, source, target, kind)

    # -- export and import -----------------------------------------------------------------
    @keyed_stream
    async def export_graph(
        self, owner: Owner, memory_ids: Sequence[UUID]
    ) -> AsyncIterator[dict[str, Any]]:
        """The edges and entities of exported memories, then the owner's facts, as records."""
        async for record in self._exports.graph_records(owner, memory_ids):
            yield record

    @keyed
    async def import_graph(
        self, owner: Owner, records: Sequence[Mapping[str, Any]], ids: Mapping[UUID, UUID]
    ) -> tuple[int, int]:
        """Edges and entities of an export; how many edges and mentions were stored."""
        return await self._exports.import_graph(owner, records, ids)

    @keyed
    async def import_facts(
        self, owner: Owner, records: Sequence[Mapping[str, Any]], ids: Mapping[UUID, UUID]
    ) -> int:
        """The fact records of an export; how many facts were stored."""
        return await self._exports.import_facts(owner, records, ids)

    @keyed_stream
    async def export_records(self, owner: Owner) -> AsyncIterator[dict[str, Any]]:
        """The owner's whole export as portable records, histories included."""
        async for record in self._exports.records(owner):
            yield record

    @keyed
    async def import_records(
        self, owner: Owner, records: Sequence[Mapping[str, Any]],
        progress: Callable[[int], object] | None = None,
    ) -> ImportReport:
        """Restore an export under its own ids (what the owner holds is skipped)."""
        return await self._exports.import_records(owner, records, progress)

    # -- maintenance -----------------------------------------------------------------------
    async def decay(self, owner: Reach = None) -> int:
        return await self._maintenance.decay(owner)

    async def cleanup(self, owner: Reach = None) -> int:
        return await self._maintenance.cleanup(owner)

    async def backfill(self, batch_size: int = 64) -> int:
        return await self._maintenance.backfill(batch_size)

    # Last: inside the class body this name shadows the builtin `list` in later annotations.
    @keyed
    async def list(
        self, owner: Owner, filters: MemoryFilter, cursor: Cursor | None, limit: int
    ) -> Page[Memory]:
        """Newest first, keyset-paginated; importance computed at now."""
        return await self._reading.page(owner, filters, cursor, limit)
