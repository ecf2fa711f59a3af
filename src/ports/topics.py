"""TopicPort: one topic's memories and the owner's topic counts, read set-based by the store."""

from __future__ import annotations

from abc import ABC, abstractmethod

from memlane.domain.model import Owner, StoredMemory
from memlane.domain.topics import TopicSummary


class TopicPort(ABC):
    """Topics are a memory's tags and its imported chat's title, compared by
    `domain.topics.topic_key`. The one place that knows how tags are stored: when tags move
    to sealed values with a keyed blind column, only the adapter's statements change."""

    @abstractmethod
    async def memories_with(self, owner: Owner, topic: str) -> list[StoredMemory]:
        """The owner's memories carrying `topic` (any spelling of its key), without index
        terms or embedding, in no particular order."""

    @abstractmethod
    async def summaries(self, owner: Owner, limit: int) -> list[TopicSummary]:
        """At most `limit` of the owner's topics with their memory count and newest memory's
        time, most recently active first (then by key); each labelled as the newest memory
        carrying it spells it."""
