"""TopicPort: the rows a topic view is derived from, read set-based through the topic index."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from uuid import UUID

from memlane.domain.facts import TopicTally
from memlane.domain.model import Owner, StoredMemory


class TopicPort(ABC):
    """Topics are a memory's tags and its imported chat's title, sealed in its attributes;
    each memory also keeps the blind tokens of its topic keys (`topic_tokens`), so the store
    finds a topic's memories without opening any. Rows stored before the tokens were kept
    (tokens NULL) are returned apart, for the service to open the old way. Every row comes
    without index terms or embedding."""

    @abstractmethod
    async def carrying(self, owner: Owner, token: str) -> list[StoredMemory]:
        """The owner's memories whose tokens hold `token`, and those without tokens, newest
        first (then by id, descending)."""

    @abstractmethod
    async def untokened(self, owner: Owner) -> list[StoredMemory]:
        """The owner's memories without tokens, newest first (then by id, descending)."""

    @abstractmethod
    async def tallies(self, owner: Owner) -> list[TopicTally]:
        """Every token of the owner's memories with its count, newest memory (by created_at,
        then id) and that memory's time, most recently active first; none is opened."""

    @abstractmethod
    async def memories(self, owner: Owner, ids: Sequence[UUID]) -> list[StoredMemory]:
        """These memories of the owner (others' and missing ids are left out)."""
