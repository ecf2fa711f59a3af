"""Editing memories: a patch (re-embedded when what is embedded changed), a delete, an erasure."""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import replace
from datetime import datetime
from typing import Protocol
from uuid import UUID

from memlane.domain.errors import MemoryNotFound
from memlane.domain.memories import build_tiers, domain_evidence, summarize
from memlane.domain.model import Heat, Memory, MemoryPatch, Owner
from memlane.domain.policy import MemoryPolicy
from memlane.ports.clock import Clock
from memlane.ports.memories import MemoryStorePort
from memlane.service.memories import audit as memory_audit
from memlane.service.memories.documents import DocumentVectors
from memlane.service.memories.reading import Reading
from memlane.service.memories.superseding import Superseding
from memlane.service.memories.validation import check_patch
from memlane.service.security import AuditTrail, Sealer, document_text, erase_owner


class FactEraser(Protocol):
    """What erasing an owner asks of facts: all of theirs gone, how many there were."""

    def delete_all(self, owner: Owner, /) -> Awaitable[int]: ...


class Editing:
    """Changes an owner makes by hand, each recorded in the audit trail with the change."""

    def __init__(
        self,
        store: MemoryStorePort,
        reading: Reading,
        vectors: DocumentVectors,
        sealer: Sealer,
        trail: AuditTrail,
        policy: MemoryPolicy,
        clock: Clock,
        facts: FactEraser | None = None,
        superseding: Superseding | None = None,
    ) -> None:
        self._store = store
        self._reading = reading
        self._vectors = vectors
        self._sealer = sealer
        self._trail = trail
        self._policy = policy
        self._clock = clock
        self._facts = facts
        self._superseding = superseding

    async def update(self, owner: Owner, memory_id: UUID, patch: MemoryPatch) -> Memory:
        """Edit fields; new content is re-embedded, new importance restarts the decay clock."""
        patch = check_patch(patch, self._policy)
        stored = await self._reading.stored(owner, memory_id)
        now = self._clock()
        before = self._reading.opened(stored, now)
        memory = _patched(before, patch, now)
        embedding = stored.embedding
        if document_text(memory) != document_text(before):
            # What is embedded changed (content, or a turn's speaker): the old vector is stale.
            vectors = await self._vectors.embed([document_text(memory)])
            embedding = None if vectors is None else vectors[0]
            memory = replace(
                memory, embedding_model=None if vectors is None else self._vectors.model
            )
        async with self._trail.change(owner) as changes:
            if self._trail.enabled:
                # What the row holds now, under the owner's lock: the audit's "old" values.
                before = self._reading.opened(await self._reading.stored(owner, memory_id), now)
            if not await self._store.update(self._sealer.seal(memory, embedding, now)):
                raise MemoryNotFound(memory_id)  # deleted while we were editing it
            changes.add(*memory_audit.updated(before, memory))
        return self._reading.opened(await self._reading.stored(owner, memory_id), now)

    async def delete(self, owner: Owner, memory_id: UUID) -> None:
        """A person's delete (REST, MCP `forget`, the inspector, in process): what the memory
        had replaced holds again, as its facts' replaced facts do. System deletes (cleanup,
        consolidation) go their own ways and revive nothing."""
        async with self._trail.change(owner) as changes:
            if self._superseding is not None:
                # Before the delete: afterwards storage has pointed them on along the chain.
                changes.add(*await self._superseding.revive_for(owner, [memory_id]))
            if not await self._store.delete(owner, memory_id):
                raise MemoryNotFound(memory_id)
            changes.add(memory_audit.deleted(memory_id))

    async def delete_all(self, owner: Owner) -> int:
        """Erase every memory of the owner and their facts, and their history down to
        tombstones; how many memories there were."""
        async with self._trail.change(owner) as changes:
            return await erase_owner(owner, changes, self._store, self._facts, self._trail)


def _patched(memory: Memory, patch: MemoryPatch, now: datetime) -> Memory:
    if patch.content is not None and patch.content.strip() != memory.content:
        content = patch.content.strip()
        memory = replace(
            memory, content=content, summary=summarize(content), tiers=build_tiers(content),
            traits=replace(memory.traits, domain=domain_evidence(content)[0]),
        )
    if patch.importance is not None:
        memory = replace(memory, heat=Heat(patch.importance, memory.access_count, now))
    return replace(
        memory,
        memory_type=patch.memory_type or memory.memory_type,
        tags=memory.tags if patch.tags is None else patch.tags,
        pinned=memory.pinned if patch.pinned is None else patch.pinned,
        metadata=memory.metadata if patch.metadata is None else dict(patch.metadata),
        updated_at=now,
    )
