"""Consolidating memories: one new memory in place of several, linked, recorded, one transaction."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from uuid import UUID, uuid4

from memlane.domain.detail import Provenance
from memlane.domain.errors import InvalidMemory, MemoryNotFound, MemoryUnreadable
from memlane.domain.graph import Edge
from memlane.domain.memories import (
    Consolidation,
    Replacement,
    check_sources,
    condensed,
    importance_at,
    in_time_order,
    links,
    summarize,
    traits_of,
)
from memlane.domain.model import Heat, Memory, Owner, Vector
from memlane.domain.policy import MemoryPolicy
from memlane.ports.clock import Clock
from memlane.ports.graph import GraphPort
from memlane.ports.memories import ConsolidationPort, MemoryStorePort
from memlane.service.entities import EntityLinker, Named
from memlane.service.memories import audit as memory_audit
from memlane.service.memories.documents import DocumentVectors
from memlane.service.memories.superseding import Superseding
from memlane.service.memories.validation import check_new
from memlane.service.security import AuditTrail, Sealer, change_of, document_text, speakers_of


@dataclass(frozen=True, slots=True)
class Draft:
    """A consolidation read and built, before its vector and its transaction."""

    memory: Memory
    sources: tuple[Memory, ...]
    ids: tuple[UUID, ...]
    deleting: bool


@dataclass(frozen=True, slots=True)
class Consolidated:
    """The new memory, its sources in time order, whether they were deleted, and the edges
    made (none when the sources were deleted: there is nothing left to link to)."""

    memory: Memory
    sources: tuple[Memory, ...]
    sources_deleted: bool
    edges: tuple[Edge, ...]


class Consolidator:
    """A user's consolidation (POST /v1/memories/consolidate): made by whoever asks, so its
    events name that caller; `system:consolidation` stays for a background job."""

    def __init__(
        self,
        store: MemoryStorePort,
        consolidation: ConsolidationPort | None,
        vectors: DocumentVectors,
        sealer: Sealer,
        policy: MemoryPolicy,
        clock: Clock,
        trail: AuditTrail | None = None,
        graph: GraphPort | None = None,
        names: EntityLinker | None = None,
        superseding: Superseding | None = None,
    ) -> None:
        self._store = store
        self._consolidation = consolidation
        self._vectors = vectors
        self._sealer = sealer
        self._policy = policy
        self._clock = clock
        self._trail = trail
        self._graph = graph
        self._names = names
        self._superseding = superseding

    async def consolidate(self, owner: Owner, request: Consolidation) -> Consolidated:
        """MemoryNotFound when a source is not the owner's, InvalidMemory for fewer than two
        sources or a content that does not fit; nothing changes then."""
        draft = await self.draft(owner, request)
        (vector,) = await self.vectors([draft])
        return await self.commit(draft, vector)

    async def draft(self, owner: Owner, request: Consolidation) -> Draft:
        """The new memory, built from its opened sources, not yet embedded or stored; the
        errors of `consolidate`. Many drafts embed in one call (`vectors`): the sleep cycle's
        merges."""
        ids = check_sources(request.sources)
        deleting = self._deleter(request)
        now = self._clock()
        sources = await self._opened(owner, ids, now)
        new = check_new(condensed(request, sources), self._policy)
        heat = Heat(float(new.importance or 0.0), 0, now)
        memory_type = new.memory_type or sources[-1].memory_type
        memory = Memory(
            id=uuid4(), owner=owner, memory_type=memory_type, content=new.content,
            summary=summarize(new.content),
            importance=importance_at(heat, memory_type, now, self._policy.base_rate),
            heat=heat, created_at=now, updated_at=now, conversation_id=new.conversation_id,
            tags=new.tags, pinned=new.pinned,
            traits=traits_of(new.content, Provenance.CONSOLIDATED, None),
        )
        return Draft(memory, tuple(sources), ids, deleting is not None)

    async def vectors(self, drafts: Sequence[Draft]) -> list[Vector | None]:
        """The drafts' vectors, one embedding call for them all (None while the embedder
        is down: stored without, backfilled later)."""
        vectors = await self._vectors.embed([document_text(d.memory) for d in drafts])
        return [None] * len(drafts) if vectors is None else list(vectors)

    async def commit(self, draft: Draft, vector: Vector | None) -> Consolidated:
        """The draft stored with its vector, its sources replaced, linked or deleted, in one
        transaction; MemoryNotFound when a source went away meanwhile (nothing changes)."""
        owner, ids, now = draft.memory.owner, draft.ids, draft.memory.created_at
        deleting = self._consolidation if draft.deleting else None
        memory = replace(
            draft.memory, embedding_model=None if vector is None else self._vectors.model)
        edges: list[Edge] = []
        async with change_of(self._trail, owner) as changes, \
                self._store.write_session(owner) as session:
            # Under the owner's lock: a source deleted meanwhile is a 404 and nothing is kept.
            present = {s.id for s in await session.read_many(ids)}
            if missing := [i for i in ids if i not in present]:
                raise MemoryNotFound(missing[0])
            await session.insert_many([self._sealer.seal(memory, vector, now)])
            changes.add(memory_audit.created(memory), memory_audit.consolidated(memory.id, ids))
            changes.add(*(memory_audit.consolidated_into(s, memory.id) for s in ids))
            if self._superseding is not None:
                # Kept or deleted, the sources are replaced by it: what pointed at a deleted
                # source points on to the consolidation, and never comes back by the delete.
                marked = await self._superseding.mark(
                    owner, [Replacement(s, memory.id, now) for s in ids], now,
                    how=dict.fromkeys(ids, "consolidated"))
                changes.add(*marked.changes)
            if deleting is not None:
                # The facts read from the sources are the consolidation's now: it says it all.
                await deleting.delete_sources(owner, ids, into=memory.id)
                changes.add(*(memory_audit.deleted(s) for s in ids))
            elif self._graph is not None:
                edges = links(memory.id, ids, now)
                await self._graph.add_edges(
                    owner, edges, cap_per_node=self._policy.graph.max_semantic_edges)
        if self._names is not None:  # derived, after the commit, as on any write
            await self._names.link(owner, [Named(
                memory.id, document_text(memory), speakers_of(memory.metadata))], now)
        return Consolidated(memory, draft.sources, deleting is not None, tuple(edges))

    def _deleter(self, request: Consolidation) -> ConsolidationPort | None:
        if not request.delete_sources:
            return None
        if self._consolidation is None:
            raise InvalidMemory("this memlane cannot delete consolidated sources")
        return self._consolidation

    async def _opened(self, owner: Owner, ids: Sequence[UUID], now: datetime) -> list[Memory]:
        """The sources, opened, in time order; 404 for one the owner does not have."""
        stored = {s.id: s for s in await self._store.get_many(owner, ids, indexed=False)}
        if missing := [i for i in ids if i not in stored]:
            raise MemoryNotFound(missing[0])
        opened = []
        for memory_id in ids:
            memory = self._sealer.readable(stored[memory_id], now)
            if memory is None:
                raise MemoryUnreadable(memory_id)
            opened.append(memory)
        return in_time_order(opened)
