"""Tool results: memlane's domain values as the JSON an assistant reads."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from memlane.domain.facts import Fact
from memlane.domain.graph import Entity, KnowledgeGraph, Relation
from memlane.domain.model import Memory, MemoryContext, ScoredMemory
from memlane.service.security import HistoryEvent


def memory_view(memory: Memory) -> dict[str, Any]:
    """A memory, its fields named as REST names them (`current`, `superseded_by` and
    `valid_until` say whether something replaced it, and what)."""
    return {
        "id": str(memory.id),
        "content": memory.content,
        "memory_type": memory.memory_type.value,
        "importance": round(memory.importance, 4),
        "tags": list(memory.tags),
        "pinned": memory.pinned,
        "conversation_id": memory.conversation_id,
        "created_at": memory.created_at.isoformat(),
        "updated_at": memory.updated_at.isoformat(),
        "current": memory.current,
        "superseded_by": None if memory.superseded_by is None else str(memory.superseded_by),
        "valid_until": None if memory.valid_until is None else memory.valid_until.isoformat(),
    }


def scored_view(hit: ScoredMemory) -> dict[str, Any]:
    """A search result: the memory, its cosine and relevance (4 decimals) and the `score`
    that orders the results (whole, so none tie by rounding)."""
    return {
        **memory_view(hit.memory),
        "similarity": round(hit.similarity, 4),
        "relevance": round(hit.relevance, 4),
        "score": hit.score,
    }


def fact_view(fact: Fact) -> dict[str, Any]:
    def stamp(value: datetime | None) -> str | None:
        return None if value is None else value.isoformat()

    return {
        "id": str(fact.id),
        "subject": fact.subject,
        "relation": fact.relation,
        "object": fact.object,
        "fact_type": fact.fact_type.value,
        "time_span": fact.time_span.value,
        "confidence": round(fact.confidence, 4),
        "user_fact_score": fact.user_fact_score,
        "valid_from": stamp(fact.valid_from),
        "valid_until": stamp(fact.valid_until),
        "superseded_by": None if fact.superseded_by is None else str(fact.superseded_by),
        "source_memory_id": None if fact.source_memory_id is None else str(fact.source_memory_id),
    }


def context_entry_view(entry: MemoryContext) -> dict[str, Any]:
    return {
        "id": str(entry.id),
        "memory_type": entry.memory_type.value,
        "relevance": round(entry.relevance, 4),
        "created_at": entry.created_at.isoformat(),
        "superseded_by": None if entry.superseded_by is None else str(entry.superseded_by),
    }


# The reference memory server's JSON shapes (camelCase), so prompts written for it still fit.
def entity_view(entity: Entity) -> dict[str, Any]:
    return {
        "name": entity.name,
        "entityType": entity.entity_type,
        "observations": list(entity.observations),
    }


def relation_view(relation: Relation) -> dict[str, Any]:
    return {"from": relation.source, "to": relation.target, "relationType": relation.relation_type}


def graph_view(graph: KnowledgeGraph) -> dict[str, Any]:
    return {
        "entities": [entity_view(e) for e in graph.entities],
        "relations": [relation_view(r) for r in graph.relations],
    }


def history_view(event: HistoryEvent) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "kind": event.kind.value,
        "subject_kind": event.subject_kind.value,
        "subject_id": str(event.subject_id),
        "related_id": None if event.related_id is None else str(event.related_id),
        "actor": event.actor,
        "at": event.at.isoformat(),
        "payload": event.payload,
    }
