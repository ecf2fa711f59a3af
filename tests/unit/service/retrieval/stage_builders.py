"""Small builders for retrieval stage tests: a request's state and lean candidates."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4

from memlane.domain.model import (
    ContextRole,
    Heat,
    Memory,
    MemoryContext,
    MemoryType,
    Owner,
    ScoredMemory,
    SearchCandidate,
)
from memlane.domain.retrieval.context import ContextOptions
from memlane.service.retrieval.candidates import Candidate
from memlane.service.retrieval.contexts import context_of
from memlane.service.retrieval.pipeline import Retrieval

NOW = datetime(2030, 6, 1, 12, tzinfo=UTC)
OWNER = Owner("tenant", "alice")


def request(query: str = "where do I live?", places: int = 5, **options: object) -> Retrieval:
    return Retrieval(OWNER, query, NOW, places, 50, ContextOptions(**options))  # type: ignore[arg-type]


def hit(
    score: float = 0.5, *, conversation: str | None = None, age_days: float = 0.0,
    importance: float = 0.5, memory_type: MemoryType = MemoryType.CONTEXT,
    memory_id: UUID | None = None, superseded_by: UUID | None = None,
) -> SearchCandidate:
    created = NOW - timedelta(days=age_days)
    return SearchCandidate(
        memory_id or uuid4(), score, memory_type, Heat(importance, 0, created), created,
        conversation, superseded_by, None if superseded_by is None else NOW,
    )


def candidate(
    match: float, similarity: float = 0.5, *, lexical: bool = False, **found: object
) -> Candidate:
    return Candidate(hit(similarity, **found), similarity, match, lexical)  # type: ignore[arg-type]


def opened(content: str = "I live in Porto") -> ScoredMemory:
    """A memory as the opening stage hands it on."""
    memory = Memory(
        id=uuid4(), owner=OWNER, memory_type=MemoryType.FACT, content=content, summary=content,
        importance=0.5, heat=Heat(0.5, 0, NOW), created_at=NOW, updated_at=NOW,
    )
    return ScoredMemory(memory, 0.5, 0.5)


def context(content: str = "I live in Porto") -> MemoryContext:
    return context_of(opened(content), ContextRole.ENTRY, {})
