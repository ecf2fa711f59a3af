"""Writing memories: classify, score, embed in one batch, dedup-merge under the owner lock, seal."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any
from uuid import UUID, uuid4

from memlane.domain.decay import importance_at
from memlane.domain.errors import EmbeddingUnavailable, StorageUnavailable
from memlane.domain.importance import classify, estimate_importance
from memlane.domain.knowledge_graph import role_of
from memlane.domain.model import (
    DenseHit,
    Heat,
    Memory,
    Nearby,
    NewMemory,
    Owner,
    RememberResult,
    StoredMemory,
    Vector,
)
from memlane.domain.segments import NAMES_KEY, SEGMENT_KEY
from memlane.domain.summary import summarize
from memlane.domain.supersession import SupersessionDecision
from memlane.domain.temporal import Moment
from memlane.ports.memories import MemoryWriteSession
from memlane.service import memory_audit
from memlane.service.audit_trail import AuditTrail, Changes, change_of
from memlane.service.entity_linking import EntityLinker, Named
from memlane.service.fact_recording import FactRecorder, Said
from memlane.service.graph_linking import GraphLinker, Written
from memlane.service.merging import merge
from memlane.service.part import ServicePart
from memlane.service.sealing import document_text, is_turn, speaker_of, speakers_of
from memlane.service.validation import check_new
from memlane.service.vectors import cosines

log = logging.getLogger(__name__)


@dataclass
class _Draft:
    """A memory about to be written in this session; `existing` ones are replaced, not inserted."""

    memory: Memory
    embedding: Vector | None
    existing: bool
    reembed: bool = False


class Writer(ServicePart):
    """The write path shared by remember, remember_many and learn."""

    _linker: GraphLinker | None = None
    _trail: AuditTrail | None = None
    _facts: FactRecorder | None = None

    def link_with(self, linker: GraphLinker) -> None:
        """Grow the graph on every write (semantic links, supersession)."""
        self._linker = linker

    def record_with(self, trail: AuditTrail) -> None:
        """Record what each write creates, merges and supersedes in the audit trail."""
        self._trail = trail

    def _change(self, owner: Owner) -> AbstractAsyncContextManager[Changes]:
        return change_of(self._trail, owner)

    _namer: EntityLinker | None = None

    def name_with(self, namer: EntityLinker) -> None:
        """Read every written memory for entities (people, places, ...) and link them."""
        self._namer = namer

    def read_facts_with(self, recorder: FactRecorder) -> None:
        """Read facts from what the user said in every write (after the memories commit)."""
        self._facts = recorder

    async def embed_documents(self, texts: Sequence[str]) -> list[Vector] | None:
        """Vectors for the texts, or None when the embedder is down (the write goes on)."""
        try:
            return await self._embedder.embed(list(texts), kind="document")
        except EmbeddingUnavailable as error:
            # The write must not be lost: store without embedding, backfill later.
            log.warning(
                "embedder unavailable, storing %d memories without embedding: %s", len(texts), error
            )
            return None

    async def remember_many(
        self, owner: Owner, items: Sequence[NewMemory], said: Sequence[str | None] | None = None
    ) -> list[RememberResult]:
        """Store each item, merging near-duplicates of stored memories and of earlier items.

        `said`: per item, what the user said in it (the text facts are read from); by
        default its content, none for a transcript's turn (someone else's "I")."""
        checked = [check_new(item, self._policy) for item in items]  # all or nothing
        if not checked:
            return []
        now = self._clock()
        fresh = [self._draft(owner, new, now) for new in checked]
        vectors = await self.embed_documents([document_text(d.memory) for d in fresh])
        for index, draft in enumerate(fresh):
            draft.embedding = None if vectors is None else vectors[index]
        # The audit's unit of work first: the write session joins its transaction and lock.
        async with self._change(owner) as changes, self._store.write_session(owner) as session:
            nearby = await self._probe(session, fresh)
            decisions = await self._judge(session, fresh, nearby, now)
            drafts: list[_Draft] = []
            outcome: list[tuple[_Draft, bool]] = []
            for draft, near, replaces in zip(fresh, nearby, decisions, strict=True):
                # A statement that replaces an older one is stored beside it, never merged.
                hit = None if replaces or not _dedups(draft) else near.best
                target = None if replaces else self._duplicate_of(draft, hit, drafts, now)
                merged = None if target is None else self._merged(target, draft, now)
                if target is None or merged is None:
                    drafts.append(draft)
                    outcome.append((draft, False))
                    changes.add(memory_audit.created(draft.memory), *(
                        memory_audit.superseded(d.replaces, draft.memory.id, d.kind.value)
                        for d in replaces
                    ))
                else:
                    changes.add(memory_audit.merged(target.memory, merged, draft.memory.id))
                    target.memory = merged
                    target.reembed = True
                    outcome.append((target, True))
            await self._reembed([d for d in drafts if d.reembed])
            sealed = {id(d): self._seal(d, now) for d in drafts if d.reembed or not d.existing}
            await session.insert_many([sealed[id(d)] for d in drafts if not d.existing])
            await session.replace_many([sealed[id(d)] for d in drafts if d.existing and d.reembed])
        # Facts and names are read while the graph links are stored: all only follow the commit.
        edges, _, _ = await asyncio.gather(
            self._link(owner, fresh, nearby, decisions, outcome, now),
            self._name(owner, outcome, now),
            self._read_facts(owner, fresh, outcome, said),
        )
        return [
            RememberResult(d.memory, merged, edges.get(d.memory.id, ())) for d, merged in outcome
        ]

    async def _judge(
        self,
        session: MemoryWriteSession,
        fresh: Sequence[_Draft],
        nearby: Sequence[Nearby],
        now: datetime,
    ) -> list[list[SupersessionDecision]]:
        if self._linker is None:
            return [[] for _ in fresh]
        # A transcript's turn (or a segment of named speakers) records what someone said
        # then, not what holds now for the user: it is linked, never judged as replacing.
        texts = [
            d.memory.content
            if d.embedding is not None and not _is_transcript(d.memory.metadata) else None
            for d in fresh
        ]
        speakers = [speaker_of(d.memory.metadata) for d in fresh]
        return await self._linker.judge(session, texts, nearby, now, speakers)

    async def _link(
        self,
        owner: Owner,
        fresh: Sequence[_Draft],
        nearby: Sequence[Nearby],
        decisions: Sequence[Sequence[SupersessionDecision]],
        outcome: Sequence[tuple[_Draft, bool]],
        now: datetime,
    ) -> dict[UUID, tuple[tuple[UUID, str, float], ...]]:
        """Edges of the memories stored as new (a merge adds no node), after the commit."""
        if self._linker is None:
            return {}
        stored = {id(d) for d, merged in outcome if not merged}
        written = [
            # The conversation as stored (its blind token): the earlier memories it is
            # compared with are read from storage.
            Written(d.memory.id, near, replaces, Moment(
                d.memory.id, d.memory.created_at,
                self._sealer.attributes.conversation_token(owner.tenant, d.memory.conversation_id),
            ))
            for d, near, replaces in zip(fresh, nearby, decisions, strict=True)
            if id(d) in stored and d.embedding is not None
        ]
        try:
            linked = await self._linker.link(owner, written, now)
        except StorageUnavailable as error:
            # The memories are committed: a lost link must not turn the write into an error
            # a client would retry (and so store twice).
            log.warning("graph links of %d new memories not stored: %s", len(written), error)
            return {}
        made: dict[UUID, list[tuple[UUID, str, float]]] = {}
        for edge in linked:
            made.setdefault(edge.source, []).append((edge.target, edge.kind.value, edge.weight))
        return {memory_id: tuple(edges) for memory_id, edges in made.items()}

    async def _name(
        self, owner: Owner, outcome: Sequence[tuple[_Draft, bool]], now: datetime
    ) -> None:
        """Entities of the memories written (new, or a merge's result), after the commit."""
        if self._namer is None:
            return
        named = {
            d.memory.id: Named(d.memory.id, document_text(d.memory), speakers_of(d.memory.metadata))
            for d, _ in outcome
        }
        try:
            await self._namer.link(owner, list(named.values()), now)
        except StorageUnavailable as error:
            # As for edges: the memories are committed, the write must not become an error.
            log.warning("entities of %d memories not stored: %s", len(named), error)

    async def _read_facts(
        self,
        owner: Owner,
        fresh: Sequence[_Draft],
        outcome: Sequence[tuple[_Draft, bool]],
        said: Sequence[str | None] | None,
    ) -> None:
        """Facts from what each item said, sourced to the memory it became (or merged into)."""
        if self._facts is None:
            return
        texts = said if said is not None else [
            None if _is_transcript(d.memory.metadata) else d.memory.content for d in fresh
        ]
        await self._facts.read_after_write(owner, [
            Said(target.memory.id, text, draft.memory.created_at)
            for draft, (target, _), text in zip(fresh, outcome, texts, strict=True) if text
        ])

    def _draft(self, owner: Owner, new: NewMemory, now: datetime) -> _Draft:
        content = new.content.strip()
        cues = self._policy.cues
        memory_type = new.memory_type or classify(content, cues)
        base = new.importance
        if base is None:
            base = estimate_importance(content, "", cues)
        created_at = new.created_at or now
        heat = Heat(base_importance=float(base), access_count=0, accessed_at=created_at)
        memory = Memory(
            id=uuid4(),
            owner=owner,
            memory_type=memory_type,
            content=content,
            summary=summarize(content),
            importance=importance_at(heat, memory_type, now, self._policy.base_rate),
            heat=heat,
            created_at=created_at,
            updated_at=now,
            conversation_id=new.conversation_id,
            tags=tuple(new.tags),
            metadata=dict(new.metadata),
            pinned=new.pinned,
        )
        return _Draft(memory=memory, embedding=None, existing=False)

    async def _probe(self, session: MemoryWriteSession, fresh: Sequence[_Draft]) -> list[Nearby]:
        """What lies near each draft, in one query for the batch: the nearest stored memory
        (dedup) and, when the graph is on, the nearest few (links, supersession)."""
        linker = self._linker if self._linker is not None and self._linker.active else None
        probing = [
            i for i, d in enumerate(fresh)
            if _dedups(d) or (linker is not None and d.embedding is not None)
        ]
        neighbours = 1 if linker is None else linker.probe_neighbours
        found = await session.nearest_many([_vector(fresh[i]) for i in probing], neighbours)
        nearby = [Nearby(None)] * len(fresh)
        for i, near in zip(probing, found, strict=True):
            nearby[i] = near
        return nearby

    def _duplicate_of(
        self, draft: _Draft, hit: DenseHit | None, drafts: list[_Draft], now: datetime
    ) -> _Draft | None:
        """The draft to merge into: the most similar above merge_threshold, stored or batch."""
        if not _dedups(draft):
            return None
        embedding = _vector(draft)
        threshold = self._policy.merge_threshold
        best: _Draft | None = None
        best_similarity = threshold
        others = [other for other in drafts if _dedups(other)]
        for other, similarity in zip(
            others, cosines(embedding, [_vector(o) for o in others]), strict=True
        ):
            if similarity > best_similarity:
                best, best_similarity = other, similarity
        held = None if hit is None else self._sealer.readable_attributes(hit.stored)
        if held is None or is_turn(held.metadata) or role_of(held.metadata):
            hit = None  # a fact is not folded into a turn, nor into a knowledge-graph node
        if hit is not None and hit.similarity > best_similarity:
            known = next((d for d in drafts if d.existing and d.memory.id == hit.stored.id), None)
            if known is not None:
                return known
            memory = self._sealer.readable(hit.stored, now)
            if memory is None:
                return best  # a merge candidate that cannot be opened is skipped
            opened = _Draft(memory=memory, embedding=hit.stored.embedding, existing=True)
            drafts.append(opened)
            return opened
        return best

    def _merged(self, target: _Draft, draft: _Draft, now: datetime) -> Memory | None:
        """The merge of draft into target, or None when it would outgrow max_content_bytes
        (the new memory is then stored on its own: nothing lost, no unbounded growth)."""
        merged = merge(target.memory, draft.memory, now, self._policy.base_rate)
        if len(merged.content.encode()) > self._policy.max_content_bytes:
            return None
        return merged

    async def _reembed(self, drafts: Sequence[_Draft]) -> None:
        """One batched call for every merged memory; on an outage they wait for backfill."""
        if not drafts:
            return
        vectors = await self.embed_documents([document_text(d.memory) for d in drafts])
        for index, draft in enumerate(drafts):
            draft.embedding = None if vectors is None else vectors[index]

    def _seal(self, draft: _Draft, now: datetime) -> StoredMemory:
        """The draft's final form (importance now, embedding model) sealed for storage."""
        memory = draft.memory
        model = self._embedder.model if draft.embedding is not None else None
        importance = importance_at(memory.heat, memory.memory_type, now, self._policy.base_rate)
        draft.memory = replace(memory, importance=importance, embedding_model=model)
        return self._sealer.seal(draft.memory, draft.embedding, now)


def _dedups(draft: _Draft) -> bool:
    """Whether a draft takes part in dedup: it has an embedding and is not a conversation turn.

    A turn (or a conversation segment) is an event: the same words said at another time, or
    by someone else, are another turn, and merging would lose when and who (their embedded
    text shares date and speaker, so cosine would merge unrelated turns).
    """
    metadata = draft.memory.metadata
    # A knowledge-graph node is one name or statement the caller keeps apart on purpose.
    distinct = is_turn(metadata) or SEGMENT_KEY in metadata or role_of(metadata) is not None
    return draft.embedding is not None and not distinct


def _is_transcript(metadata: Mapping[str, Any]) -> bool:
    return is_turn(metadata) or bool(metadata.get(NAMES_KEY))


def _vector(draft: _Draft) -> Vector:
    if draft.embedding is None:
        raise ValueError("a draft without an embedding takes no part in dedup")
    return draft.embedding
