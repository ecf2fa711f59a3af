"""MemoryService's reads: one memory, a page, the export stream, search and context, stats."""

from __future__ import annotations

from collections.abc import AsyncIterator, Collection
from datetime import datetime
from uuid import UUID

from memlane.domain.errors import InvalidMemory, MemoryNotFound, MemoryUnreadable
from memlane.domain.graph.edges import EdgeKind
from memlane.domain.model import (
    Cursor,
    Memory,
    MemoryContext,
    MemoryFilter,
    MemoryStats,
    Owner,
    Page,
    PromptContext,
    ScoredMemory,
    StoredMemory,
)
from memlane.domain.policy import MemoryPolicy
from memlane.domain.reach import Reach
from memlane.domain.retrieval.context import ContextOptions
from memlane.ports.clock import Clock
from memlane.ports.memories.maintenance import MaintenancePort
from memlane.ports.memories.store import MemoryStorePort
from memlane.service.facts.service import FactService
from memlane.service.graph.reading import GraphView, Neighbourhood
from memlane.service.memories.validation import check_filter, check_options
from memlane.service.retrieval.retriever import Retriever
from memlane.service.security.keyring import KeyringService, keyed, keyed_stream
from memlane.service.security.sealing import Sealer


class MemoryReads:
    """MemoryService's reads; each role declares the state it uses, MemoryService sets it."""

    _keyring: KeyringService | None
    _store: MemoryStorePort
    _maintenance_port: MaintenancePort
    _policy: MemoryPolicy
    _clock: Clock
    _sealer: Sealer
    _retriever: Retriever
    _graph: GraphView | None
    _facts: FactService | None

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
