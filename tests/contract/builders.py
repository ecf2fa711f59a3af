"""Builders for sealed StoredMemory rows and crafted unit vectors used by the contract suites."""

from __future__ import annotations

import math
import os
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID, uuid4

from memlane.domain.model import Heat, MemoryType, Owner, StoredMemory
from memlane.ports.memories.store import MemoryStorePort

# Microsecond precision and UTC, as PostgreSQL timestamptz returns them.
T0 = datetime(2031, 3, 14, 9, 26, 53, 589_793, tzinfo=UTC)


def axis(dimension: int, index: int) -> list[float]:
    """The unit vector along one axis."""
    vector = [0.0] * dimension
    vector[index] = 1.0
    return vector


def at_cosine(dimension: int, cosine: float, base: int = 0, other: int = 1) -> list[float]:
    """A unit vector whose cosine with axis(base) is exactly `cosine` (it leans toward `other`)."""
    vector = [0.0] * dimension
    vector[base] = cosine
    vector[other] = math.sqrt(max(0.0, 1.0 - cosine * cosine))
    return vector


def sealed(text: str) -> bytes:
    """Opaque bytes standing in for ciphertext, including bytes that are not valid UTF-8."""
    return b"\xff\x00" + os.urandom(8) + text.encode()


def stored(
    owner: Owner,
    *,
    memory_id: UUID | None = None,
    created_at: datetime = T0,
    memory_type: MemoryType = MemoryType.FACT,
    importance: float = 0.5,
    heat: Heat | None = None,
    embedding: list[float] | None = None,
    embedding_model: str | None = None,
    keywords: tuple[str, ...] = (),
    tags: tuple[str, ...] = (),
    metadata: dict[str, Any] | None = None,
    conversation_id: str | None = None,
    pinned: bool = False,
    text: str = "memory",
    topic_tokens: tuple[str, ...] | None = None,
) -> StoredMemory:
    """A StoredMemory with sensible defaults; heat defaults to (importance, 0, created_at)."""
    return StoredMemory(
        id=memory_id or uuid4(),
        owner=owner,
        memory_type=memory_type,
        content=sealed(text),
        summary=sealed(text[:20]),
        importance=importance,
        heat=heat or Heat(base_importance=importance, access_count=0, accessed_at=created_at),
        created_at=created_at,
        updated_at=created_at,
        conversation_id=conversation_id,
        tags=tags,
        metadata=metadata or {},
        pinned=pinned,
        embedding=embedding,
        embedding_model=embedding_model if embedding is None else (embedding_model or "test-model"),
        keywords=keywords,
        topic_tokens=topic_tokens,
    )


def minutes(n: int) -> timedelta:
    return timedelta(minutes=n)


async def insert(store: MemoryStorePort, *rows: StoredMemory) -> None:
    """Insert rows through write sessions, as the service does."""
    for row in rows:
        async with store.write_session(row.owner) as session:
            await session.insert_many([row])
