"""Drafts: a memory on its way to storage, embedded, matched to its duplicate, merged, sealed."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any
from uuid import uuid4

from memlane.domain.detail import Affect, Provenance
from memlane.domain.graph import role_of
from memlane.domain.memories import (
    L2_MAX_CHARS,
    NAMES_KEY,
    SEGMENT_KEY,
    build_tiers,
    classify,
    estimate_importance,
    importance_at,
    summarize,
    traits_of,
    with_arousal,
)
from memlane.domain.model import DenseHit, Heat, Memory, NewMemory, Owner, StoredMemory, Vector
from memlane.domain.policy import MemoryPolicy
from memlane.ports.affect import AffectPort
from memlane.service.memories.documents import DocumentVectors
from memlane.service.memories.merging import merge
from memlane.service.memories.parts import PART_KEY
from memlane.service.memories.vectors import cosines
from memlane.service.security import Sealer, document_text, is_turn


@dataclass
class Draft:
    """A memory about to be written in this session; `existing` ones are replaced, not inserted."""

    memory: Memory
    embedding: Vector | None
    existing: bool
    reembed: bool = False
    retypable: bool = False  # memlane chose its type: replacing a statement may change it


class Drafting:
    """What the write path does to each draft: embed it, find its duplicate, merge, seal."""

    def __init__(
        self,
        vectors: DocumentVectors,
        sealer: Sealer,
        policy: MemoryPolicy,
        affect: AffectPort | None = None,
    ) -> None:
        self.vectors = vectors
        self._sealer = sealer
        self._policy = policy
        self._affect = affect

    async def affects(self, items: Sequence[NewMemory]) -> list[Affect | None]:
        """Each item's emotional charge (None each without a lexicon), off the event loop."""
        if self._affect is None or not items:
            return [None] * len(items)
        read = await asyncio.to_thread(self._affect.affect, [i.content for i in items])
        return list(read)

    def draft(
        self, owner: Owner, new: NewMemory, now: datetime, affect: Affect | None = None
    ) -> Draft:
        content = new.content.strip()
        cues = self._policy.cues
        memory_type = new.memory_type or classify(content, cues)
        base = new.importance
        if base is None:  # a charged memory starts more important (Chvor)
            base = with_arousal(estimate_importance(content, "", cues), affect,
                                self._policy.detail.arousal_importance_gain)
        created_at = new.created_at or now
        # The forgetting curve starts when memlane learns it, not when it was said: an
        # imported chat from 2024 (created_at keeps its time) would otherwise arrive faded.
        heat = Heat(base_importance=float(base), access_count=0, accessed_at=now)
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
            tiers=build_tiers(content),
            traits=traits_of(content, new.provenance or Provenance.STATED, affect),
        )
        retypable = new.memory_type is None or new.inferred_type
        return Draft(memory=memory, embedding=None, existing=False, retypable=retypable)

    def duplicate_of(
        self, draft: Draft, hit: DenseHit | None, drafts: list[Draft], now: datetime
    ) -> Draft | None:
        """The draft to merge into: the most similar above merge_threshold, stored or batch."""
        if not dedups(draft):
            return None
        embedding = vector_of(draft)
        threshold = self._policy.merge_threshold
        best: Draft | None = None
        best_similarity = threshold
        others = [other for other in drafts if dedups(other)]
        for other, similarity in zip(
            others, cosines(embedding, [vector_of(o) for o in others]), strict=True
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
            opened = Draft(memory=memory, embedding=hit.stored.embedding, existing=True)
            drafts.append(opened)
            return opened
        return best

    def merged(self, target: Draft, draft: Draft, now: datetime) -> Memory | None:
        """The merge of draft into target, or None when it would outgrow max_content_bytes or
        the detail tier (the new memory is then stored on its own: nothing lost, no unbounded
        growth)."""
        merged = merge(target.memory, draft.memory, now, self._policy.base_rate)
        if (len(merged.content.encode()) > self._policy.max_content_bytes
                or len(merged.content) > L2_MAX_CHARS):
            return None
        return merged

    async def reembed(self, drafts: Sequence[Draft]) -> None:
        """One batched call for every merged memory; on an outage they wait for backfill."""
        if not drafts:
            return
        vectors = await self.vectors.embed([document_text(d.memory) for d in drafts])
        for index, draft in enumerate(drafts):
            draft.embedding = None if vectors is None else vectors[index]

    def seal(self, draft: Draft, now: datetime) -> StoredMemory:
        """The draft's final form (importance now, embedding model) sealed for storage."""
        memory = draft.memory
        model = self.vectors.model if draft.embedding is not None else None
        importance = importance_at(memory.heat, memory.memory_type, now, self._policy.base_rate)
        draft.memory = replace(memory, importance=importance, embedding_model=model)
        return self._sealer.seal(draft.memory, draft.embedding, now)


def dedups(draft: Draft) -> bool:
    """Whether a draft takes part in dedup: it has an embedding and is not a conversation turn.

    A turn (or a conversation segment) is an event: the same words said at another time, or
    by someone else, are another turn, and merging would lose when and who (their embedded
    text shares date and speaker, so cosine would merge unrelated turns).
    """
    return draft.embedding is not None and not kept_apart(draft.memory.metadata)


def kept_apart(metadata: Mapping[str, Any]) -> bool:
    """Whether a memory never merges with another (at write, or in the sleep cycle): a turn,
    a conversation segment, a part of a long text, a knowledge-graph node (one name or
    statement the caller keeps apart on purpose)."""
    return (is_turn(metadata) or SEGMENT_KEY in metadata or PART_KEY in metadata
            or role_of(metadata) is not None)


def is_transcript(metadata: Mapping[str, Any]) -> bool:
    return is_turn(metadata) or bool(metadata.get(NAMES_KEY))


def vector_of(draft: Draft) -> Vector:
    if draft.embedding is None:
        raise ValueError("a draft without an embedding takes no part in dedup")
    return draft.embedding
