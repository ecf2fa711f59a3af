"""TopicPort: the rows a topic view is derived from, read set-based by the store."""

from __future__ import annotations

from abc import ABC, abstractmethod

from memlane.domain.model import Owner, StoredMemory


class TopicPort(ABC):
    """Topics are a memory's tags and its imported chat's title, both sealed in the memory's
    attributes: the service opens those to find a memory's topics, so the store returns the
    owner's memories in one statement, without what topics never need."""

    @abstractmethod
    async def memories(self, owner: Owner) -> list[StoredMemory]:
        """Every memory of the owner, newest first (then by id, descending), without index
        terms or embedding."""
