"""Contexts: the opened memories as prompt context, each with how it was found, in order."""

from __future__ import annotations

from uuid import UUID

from memlane.domain.model import ContextRole, MemoryContext, ScoredMemory
from memlane.domain.retrieval import in_order
from memlane.service.retrieval.pipeline import Retrieval


class Contexts:
    """Reads `opened`, `candidates`, `resumed`, `added`, `named`, `expansion`; writes `contexts` in
    the order the options ask for (type priority, or a timeline)."""

    def __init__(self, rag_threshold: float) -> None:
        self._threshold = rag_threshold

    async def __call__(self, r: Retrieval) -> None:
        roles = {
            # A memory the embedding alone would not have brought, reached by a name.
            **{c.id: ContextRole.ENTITY for c in r.candidates
               if c.id in r.named and c.similarity < self._threshold},
            **{memory_id: ContextRole.FOCUS for memory_id in r.resumed},
            **{c.id: ContextRole.CHAIN for c in r.added},
            **r.expansion.roles,
        }
        contexts = [
            context_of(hit, roles.get(hit.memory.id, ContextRole.ENTRY), r.expansion.superseded_by)
            for hit in r.opened
        ]
        r.contexts = in_order(contexts, r.options.order)


def context_of(
    hit: ScoredMemory, role: ContextRole, superseded_by: dict[UUID, UUID]
) -> MemoryContext:
    memory = hit.memory
    return MemoryContext(
        id=memory.id,
        content=memory.content,
        memory_type=memory.memory_type,
        relevance=hit.relevance,
        similarity=hit.similarity,
        importance=memory.importance,
        created_at=memory.created_at,
        tags=memory.tags,
        metadata=memory.metadata,
        role=role,
        conversation_id=memory.conversation_id,
        superseded_by=memory.superseded_by or superseded_by.get(memory.id),
    )
