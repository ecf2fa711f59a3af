"""MemoryService's writes: remember, learn, add messages, consolidate, edit, delete, connect."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any
from uuid import UUID

from memlane.domain.errors import MemoryNotFound
from memlane.domain.graph.edges import Edge, EdgeKind
from memlane.domain.memories.consolidation import Consolidation
from memlane.domain.memories.importance import classify, estimate_importance
from memlane.domain.memories.segments import AddedMessages, Message
from memlane.domain.memories.summary import qa_content, summarize
from memlane.domain.model import Heat, Memory, MemoryPatch, NewMemory, Owner, RememberResult
from memlane.ports.embedding import EmbeddingPort
from memlane.service.memories import audit as memory_audit
from memlane.service.memories.consolidation import Consolidated, Consolidator
from memlane.service.memories.conversations import Conversations
from memlane.service.memories.reads import MemoryReads
from memlane.service.memories.validation import check_patch
from memlane.service.memories.writing import Writer
from memlane.service.security.audit_trail import AuditTrail
from memlane.service.security.erasure import erase_owner
from memlane.service.security.keyring import keyed
from memlane.service.security.sealing import document_text


class MemoryWrites(MemoryReads):
    """The writes of MemoryService: every change to an owner's memories and stated edges."""

    _embedder: EmbeddingPort
    _writer: Writer
    _trail: AuditTrail
    _conversations: Conversations
    _consolidator: Consolidator

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
            return await erase_owner(owner, changes, self._store, self._facts, self._trail)

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
