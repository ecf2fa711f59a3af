"""MemoryService: the use cases of memlane, one facade over writing, reading and maintenance."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Collection, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any
from uuid import UUID

from memlane.domain.consolidation import Consolidation
from memlane.domain.context import ContextOptions
from memlane.domain.errors import InvalidMemory, MemoryNotFound, MemoryUnreadable
from memlane.domain.graph import Edge, EdgeKind
from memlane.domain.importance import classify, estimate_importance
from memlane.domain.model import (
    Cursor,
    Heat,
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
    StoredMemory,
)
from memlane.domain.policy import MemoryPolicy
from memlane.domain.profile import ProfileCaps
from memlane.domain.reach import Reach
from memlane.domain.segments import AddedMessages, Message
from memlane.domain.summary import qa_content, summarize
from memlane.ports.audit import AuditPorts
from memlane.ports.clock import Clock, system_clock
from memlane.ports.embedding import EmbeddingPort
from memlane.ports.encryption import EncryptionPort
from memlane.ports.entities import EntityPort
from memlane.ports.facts import FactPorts
from memlane.ports.graph import GraphPort
from memlane.ports.keywords import KeywordPort
from memlane.ports.storage import MemoryPorts
from memlane.service import memory_audit
from memlane.service.audit_trail import AuditTrail
from memlane.service.consolidation import Consolidated, Consolidator
from memlane.service.conversations import Conversations
from memlane.service.entity_linking import EntityLinker
from memlane.service.entity_recall import EntityRecall
from memlane.service.facts import FactService
from memlane.service.graph_expansion import GraphExpansion
from memlane.service.graph_linking import GraphLinker
from memlane.service.graph_porting import GraphPorting
from memlane.service.graph_reading import GraphView, Neighbourhood
from memlane.service.keyring import KeyringService, keyed, keyed_stream
from memlane.service.maintenance import Maintenance
from memlane.service.memory_porting import MemoryPorting
from memlane.service.porting import ImportReport, Porting
from memlane.service.retrieval import Retriever
from memlane.service.sealing import OnUnreadable, Sealer, document_text, of_kind
from memlane.service.topics import TopicService
from memlane.service.validation import check_filter, check_options, check_patch
from memlane.service.writing import Writer


class MemoryService:
    """Remember, recall, edit, forget; every call is scoped by an Owner (tenant + user)."""

    def __init__(
        self,
        memories: MemoryPorts,
        embedder: EmbeddingPort,
        encryption: EncryptionPort,
        keywords: KeywordPort,
        policy: MemoryPolicy,
        clock: Clock = system_clock,
        graph: GraphPort | None = None,
        audit: AuditPorts | None = None,
        entities: EntityPort | None = None,
        facts: FactPorts | None = None,
        profile_caps: ProfileCaps | None = None,
        on_unreadable: OnUnreadable | None = None,
        keyring: KeyringService | None = None,
    ) -> None:
        """Without `graph` memories are islands (no links, no supersession); without `audit`
        changes leave no trail (and open no transaction of their own); without `entities` no
        names are read from them; without `facts` no facts are read or kept. `on_unreadable`
        hears the id of each memory left out of a read because it does not decrypt; `keyring`
        makes each owner's data key ready at the entry points (None: keys are not in play)."""
        self._keyring = keyring
        self._store = memories.store
        self._maintenance_port = memories.maintenance
        self._embedder = embedder
        self._policy = policy
        self._clock = clock
        self._sealer = Sealer(encryption, keywords, policy.base_rate, on_unreadable)
        parts = (memories, embedder, self._sealer, policy, clock)
        self._writer = Writer(*parts)
        self._retriever = Retriever(*parts)
        self._maintenance = Maintenance(*parts)
        self._trail = AuditTrail(audit, encryption, clock, keyring)
        self._writer.record_with(self._trail)
        self._maintenance.record_with(self._trail)
        self._graph: GraphView | None = None
        if graph is not None:
            self._writer.link_with(GraphLinker(graph, self._sealer, policy.graph))
            self._graph = GraphView(graph, memories.store, self._sealer, clock, self._trail)
            self._retriever.expand_with(GraphExpansion(graph, memories.search, policy.graph))
        self._names: EntityLinker | None = None
        if entities is not None and policy.graph.enabled:
            self._names = EntityLinker(entities, encryption)
            self._writer.name_with(self._names)
            if self._graph is not None:
                self._graph.show_names_with(self._names)
            self._retriever.recall_entities_with(
                EntityRecall(entities, memories.search, encryption, policy.graph)
            )
        self._porting = None if graph is None else GraphPorting(graph, self._names, policy.graph)
        self._conversations = Conversations(
            self._writer, memories.store, self._sealer, graph, policy, clock
        )
        # -- facts (issue 13) --
        self._facts: FactService | None = None
        self._topics: TopicService | None = None
        if facts is not None:
            self._facts = FactService.build(
                facts, encryption, memories, graph, policy, clock, profile_caps, self._trail,
                None if on_unreadable is None else of_kind(on_unreadable, "fact"),
            )
            self._writer.read_facts_with(self._facts.recorder)
            self._retriever.join_facts_with(self._facts.recall)
            if memories.topics is not None:
                self._topics = TopicService(
                    memories.topics, self._facts, self._sealer, clock, keyring
                )
        # -- consolidation (issue 13) --
        self._consolidator = Consolidator(*parts)
        self._consolidator.use(self._trail, self._writer.embed_documents, graph, self._names)
        # -- export and import of everything, histories included (issue 13) --
        restoring = MemoryPorting(*parts)
        restoring.use(self._trail, self._writer.embed_documents,
                      None if self._facts is None else self._facts.recorder, self._names)
        self._everything = Porting(
            restoring, self.export, self._trail, clock, self._porting,
            None if self._facts is None else self._facts.porting,
        )

    @property
    def policy(self) -> MemoryPolicy:
        return self._policy

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

    # -- writing ---------------------------------------------------------------------------
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
        self,
        owner: Owner,
        conversation_id: str,
        messages: Sequence[Message],
        metadata: Mapping[str, Any] | None = None,
    ) -> AddedMessages:
        """Store a conversation's messages as segments (never merged), chained in order;
        `metadata` joins each segment's own."""
        return await self._conversations.add_messages(
            owner, conversation_id, messages, metadata
        )

    # -- the graph ---------------------------------------------------------------------------
    def _graph_view(self) -> GraphView:
        if self._graph is None:
            raise InvalidMemory("this memlane runs without graph memory")
        return self._graph

    @keyed
    async def neighbourhood(
        self, owner: Owner, memory_id: UUID, depth: int = 1,
        kinds: Collection[EdgeKind] | None = None,
    ) -> Neighbourhood:
        """The memory and what lies within `depth` (1-3) edges of it, owner-scoped."""
        return await self._graph_view().neighbourhood(owner, memory_id, depth, kinds)

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

    @keyed
    async def learn(
        self,
        owner: Owner,
        question: str,
        answer: str,
        *,
        conversation_id: str | None = None,
        tags: Sequence[str] = (),
        metadata: Mapping[str, Any] | None = None,
    ) -> RememberResult | None:
        """Remember a question/answer pair scored by the heuristics; None when too short."""
        question, answer = question.strip(), answer.strip()
        shortest = self._policy.min_learn_chars
        if len(question) < shortest or len(answer) < shortest:
            return None
        cues = self._policy.cues
        new = NewMemory(
            content=qa_content(question, answer),
            memory_type=classify(question, cues),
            importance=estimate_importance(question, answer, cues),
            conversation_id=conversation_id,
            tags=tuple(tags),
            metadata=dict(metadata or {}),
        )
        # Facts come from the question: the answer is the assistant's "I".
        return (await self._writer.remember_many(owner, [new], said=[question]))[0]

    @keyed
    async def consolidate(self, owner: Owner, request: Consolidation) -> Consolidated:
        """One new memory in place of the sources (kept as superseded history, or deleted),
        linked to them and recorded on each, in one transaction."""
        return await self._consolidator.consolidate(owner, request)

    @keyed
    async def update(self, owner: Owner, memory_id: UUID, patch: MemoryPatch) -> Memory:
        """Edit fields; new content is re-embedded, new importance restarts the decay clock."""
        patch = check_patch(patch, self._policy)
        stored = await self._store.get(owner, memory_id)
        if stored is None:
            raise MemoryNotFound(memory_id)
        now = self._clock()
        before = self._opened(stored, now)
        memory = before
        if patch.content is not None and patch.content.strip() != memory.content:
            content = patch.content.strip()
            memory = replace(memory, content=content, summary=summarize(content))
        if patch.importance is not None:
            memory = replace(memory, heat=Heat(patch.importance, memory.access_count, now))
        memory = replace(
            memory,
            memory_type=patch.memory_type or memory.memory_type,
            tags=memory.tags if patch.tags is None else patch.tags,
            pinned=memory.pinned if patch.pinned is None else patch.pinned,
            metadata=memory.metadata if patch.metadata is None else dict(patch.metadata),
            updated_at=now,
        )
        embedding = stored.embedding
        if document_text(memory) != document_text(before):
            # What is embedded changed (content, or a turn's speaker): the old vector is stale.
            vectors = await self._writer.embed_documents([document_text(memory)])
            embedding = None if vectors is None else vectors[0]
            memory = replace(
                memory, embedding_model=None if vectors is None else self._embedder.model
            )
        async with self._trail.change(owner) as changes:
            if self._trail.enabled:
                # What the row holds now, under the owner's lock: the audit's "old" values.
                before = self._opened(await self._must_get(owner, memory_id), now)
            if not await self._store.update(self._sealer.seal(memory, embedding, now)):
                raise MemoryNotFound(memory_id)  # deleted while we were editing it
            changes.add(*memory_audit.updated(before, memory))
        return self._opened(await self._must_get(owner, memory_id), now)

    @keyed
    async def delete(self, owner: Owner, memory_id: UUID) -> None:
        async with self._trail.change(owner) as changes:
            if not await self._store.delete(owner, memory_id):
                raise MemoryNotFound(memory_id)
            changes.add(memory_audit.deleted(memory_id))

    @keyed
    async def delete_all(self, owner: Owner) -> int:
        """Erase every memory of the owner and their facts, and their history down to
        tombstones; how many memories there were."""
        async with self._trail.change(owner) as changes:
            erased = await self._store.delete_all(owner)
            facts = 0 if self._facts is None else await self._facts.delete_all(owner)
            await self._trail.erase(owner, changes, memories_deleted=erased, facts_deleted=facts)
        return erased

    # -- reading ---------------------------------------------------------------------------
    @keyed
    async def get(self, owner: Owner, memory_id: UUID) -> Memory:
        return self._opened(await self._must_get(owner, memory_id), self._clock())

    @keyed_stream
    async def export(self, owner: Owner) -> AsyncIterator[Memory]:
        """Every memory of the owner, oldest first, decrypted, streamed (one that does not
        decrypt is left out)."""
        async for stored in self._store.export(owner):
            memory = self._sealer.readable(stored, self._clock())
            if memory is not None:
                yield memory

    @keyed_stream
    async def export_graph(
        self, owner: Owner, memory_ids: Sequence[UUID]
    ) -> AsyncIterator[dict[str, Any]]:
        """The edges and entities of exported memories, then the owner's facts, as portable
        records."""
        if self._porting is not None:
            async for record in self._porting.records(owner, memory_ids):
                yield record
        if self._facts is not None:
            async for record in self._facts.porting.records(owner):
                yield record

    @keyed
    async def import_graph(
        self, owner: Owner, records: Sequence[Mapping[str, Any]], ids: Mapping[UUID, UUID]
    ) -> tuple[int, int]:
        """Edges and entities of an export, between the memories its ids became; how
        many edges and mentions were stored."""
        if self._porting is None:
            return 0, 0
        return await self._porting.restore(owner, records, ids, self._clock())

    @keyed
    async def import_facts(
        self, owner: Owner, records: Sequence[Mapping[str, Any]], ids: Mapping[UUID, UUID]
    ) -> int:
        """The fact records of an export, their sources the memories its ids became; how
        many facts were stored (facts already held are skipped)."""
        if self._facts is None:
            return 0
        return (await self._facts.porting.restore(owner, records, ids)).stored

    @keyed_stream
    async def export_records(self, owner: Owner) -> AsyncIterator[dict[str, Any]]:
        """The owner's whole export as portable records: memories with their histories,
        edges, entities, facts with their histories."""
        async for record in self._everything.records(owner):
            yield record

    @keyed
    async def import_records(
        self, owner: Owner, records: Sequence[Mapping[str, Any]],
        progress: Callable[[int], object] | None = None,
    ) -> ImportReport:
        """Restore an export under its own ids (what the owner holds is skipped); every
        record is checked first; `progress` hears how many memories each batch handled."""
        return await self._everything.restore(owner, records, progress)

    @keyed
    async def search(
        self, owner: Owner, query: str, *, limit: int = 10, min_similarity: float | None = None
    ) -> list[ScoredMemory]:
        """Hybrid (dense + lexical) search; does not count as an access."""
        return await self._retriever.search(
            owner, query, limit=limit, min_similarity=min_similarity, now=self._clock()
        )

    @keyed
    async def retrieve_context(
        self, owner: Owner, query: str, limit: int | None = None,
        options: ContextOptions | None = None,
    ) -> list[MemoryContext]:
        """The best memories for a prompt in type-priority order; records their access."""
        check_options(options or ContextOptions())
        return await self._retriever.retrieve_context(owner, query, limit, options)

    @keyed
    async def prompt_context(
        self, owner: Owner, query: str, limit: int | None = None,
        options: ContextOptions | None = None,
    ) -> PromptContext:
        """The memories that fit the character budget and the rendered block; the block
        opens with the profile's core facts unless options.include_profile is off."""
        options = options or ContextOptions()
        check_options(options)
        if self._facts is None or not options.include_profile:
            return await self._retriever.prompt_context(owner, query, limit, options)
        budget = self._policy.context_char_budget
        profile = await self._facts.profile_block(owner, budget)
        rest = budget - (len(profile) + 1 if profile else 0)
        found = await self._retriever.prompt_context(owner, query, limit, options, rest)
        text = "\n".join(part for part in (profile, found.text) if part)
        return PromptContext(memories=found.memories, text=text)

    async def stats(self, owner: Reach) -> MemoryStats:
        return await self._maintenance_port.stats(owner, self._clock(), self._policy.base_rate)

    # -- maintenance -----------------------------------------------------------------------
    async def decay(self, owner: Reach = None) -> int:
        return await self._maintenance.decay(owner)

    async def cleanup(self, owner: Reach = None) -> int:
        return await self._maintenance.cleanup(owner)

    async def backfill(self, batch_size: int = 64) -> int:
        return await self._maintenance.backfill(batch_size)

    # -- helpers ---------------------------------------------------------------------------
    def _opened(self, stored: StoredMemory, now: datetime) -> Memory:
        """The memory asked for by id; MemoryUnreadable when its ciphertext does not open."""
        memory = self._sealer.readable(stored, now)
        if memory is None:
            raise MemoryUnreadable(stored.id)
        return memory

    async def _must_get(self, owner: Owner, memory_id: UUID) -> StoredMemory:
        stored = await self._store.get(owner, memory_id)
        if stored is None:
            raise MemoryNotFound(memory_id)
        return stored

    # Last: inside the class body this name shadows the builtin `list` in later annotations.
    @keyed
    async def list(
        self, owner: Owner, filters: MemoryFilter, cursor: Cursor | None, limit: int
    ) -> Page[Memory]:
        """Newest first, keyset-paginated; importance computed at now."""
        if limit < 1:
            raise InvalidMemory("limit must be at least 1")
        check_filter(filters)
        wanted = self._sealer.attributes.index_filter(owner.tenant, filters)
        page = await self._store.list(owner, wanted, cursor, limit)
        now = self._clock()
        opened = (self._sealer.readable(s, now) for s in page.items)
        # A row that does not decrypt is left out; the cursor still moves past it.
        return Page([m for m in opened if m is not None], page.next_cursor)

