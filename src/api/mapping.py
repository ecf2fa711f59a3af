"""Explicit mapping between API bodies and domain values, both ways."""

from __future__ import annotations

from memlane.api.schemas import (
    ContextMemoryOut,
    ContextOut,
    LevelOut,
    MemoryItemIn,
    MemoryOut,
    PatchIn,
    RememberOut,
    SearchHitOut,
    StatsOut,
)
from memlane.domain.detail import Tier
from memlane.domain.memories import build_tiers
from memlane.domain.model import (
    Memory,
    MemoryContext,
    MemoryPatch,
    MemoryStats,
    NewMemory,
    PromptContext,
    RememberResult,
    ScoredMemory,
)


def to_new_memory(item: MemoryItemIn) -> NewMemory:
    """The domain value; its rules (content size, tags, metadata) are the service's to check."""
    return NewMemory(
        content=item.content,
        memory_type=item.memory_type,
        importance=item.importance,
        conversation_id=item.conversation_id,
        tags=tuple(item.tags),
        metadata=item.metadata,
        pinned=item.pinned,
    )


def to_patch(body: PatchIn) -> MemoryPatch:
    return MemoryPatch(
        content=body.content,
        memory_type=body.memory_type,
        importance=body.importance,
        tags=tuple(body.tags) if body.tags is not None else None,
        pinned=body.pinned,
        metadata=body.metadata,
    )


# Importances, similarities and relevances leave the API to this many decimals (0.6, not
# 0.5999999999999999); a search's `score` is sent whole, so results never tie by rounding.
DECIMALS = 4


def rounded(value: float) -> float:
    return round(value, DECIMALS)


def memory_out(memory: Memory, tier: Tier = Tier.L2) -> MemoryOut:
    """The memory with `content` at the tier asked for (L2: the full text)."""
    tiers = memory.tiers if memory.tiers is not None else build_tiers(memory.content)
    traits, affect = memory.traits, memory.traits.affect
    return MemoryOut(
        id=memory.id,
        user_id=memory.owner.user_id,
        memory_type=memory.memory_type,
        content=tiers.text(tier, memory.content),
        tier=tier.value,
        abstract=tiers.abstract,
        provenance=traits.provenance.value,
        confidence=rounded(traits.confidence),
        valence=None if affect is None else affect.valence,
        arousal=None if affect is None else affect.arousal,
        domain=traits.domain.value,
        summary=memory.summary,
        importance=rounded(memory.importance),
        base_importance=rounded(memory.base_importance),
        access_count=memory.access_count,
        accessed_at=memory.accessed_at,
        created_at=memory.created_at,
        updated_at=memory.updated_at,
        conversation_id=memory.conversation_id,
        tags=list(memory.tags),
        metadata=dict(memory.metadata),
        pinned=memory.pinned,
        embedding_model=memory.embedding_model,
        current=memory.current,
        superseded_by=memory.superseded_by,
        valid_until=memory.valid_until,
    )


def remember_out(result: RememberResult) -> RememberOut:
    return RememberOut(
        memory=memory_out(result.memory), merged=result.merged,
        parts=[part.id for part in result.parts],
    )


def search_hit_out(hit: ScoredMemory) -> SearchHitOut:
    return SearchHitOut(
        memory=memory_out(hit.memory), similarity=rounded(hit.similarity),
        relevance=rounded(hit.relevance), score=hit.score,
    )


def context_memory_out(item: MemoryContext) -> ContextMemoryOut:
    return ContextMemoryOut(
        id=item.id,
        content=item.content,
        memory_type=item.memory_type,
        relevance=rounded(item.relevance),
        similarity=rounded(item.similarity),
        importance=rounded(item.importance),
        created_at=item.created_at,
        tags=list(item.tags),
        metadata=dict(item.metadata),
        role=item.role,
        conversation_id=item.conversation_id,
        superseded_by=item.superseded_by,
    )


def context_out(prompt: PromptContext) -> ContextOut:
    return ContextOut(
        memories=[context_memory_out(m) for m in prompt.memories], context=prompt.text,
        levels=[LevelOut(id=memory_id, tier=tier.value) for memory_id, tier in prompt.levels],
    )


def stats_out(stats: MemoryStats) -> StatsOut:
    return StatsOut(
        total=stats.total,
        by_type=dict(stats.by_type),
        with_embeddings=stats.with_embeddings,
        avg_importance=rounded(stats.avg_importance),
    )

