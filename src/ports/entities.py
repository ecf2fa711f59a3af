"""EntityPort: an owner's entity nodes and the memories that mention them."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Sequence
from datetime import datetime
from uuid import UUID

from memlane.domain.entities import SealedMention, StoredMention
from memlane.domain.model import Owner


class EntityPort(ABC):
    """Entities per owner, found by blind name index; a memory's deletion takes its
    mentions with it, and an entity no memory mentions any more is gone too."""

    @abstractmethod
    async def add_mentions(
        self, owner: Owner, mentions: Sequence[SealedMention], now: datetime
    ) -> int:
        """Store the mentions, one entity per name index: a name the owner has is joined
        (whatever kind the mention guessed) and takes the higher weight, activated at
        `now`; a new name makes a node with the id, label and kind of its most salient
        mention, unless every mention of it is tentative (then it is dropped). A repeated
        mention keeps the higher salience. Mentions of another owner's or a missing
        memory are skipped. Returns how many mentions were stored."""

    @abstractmethod
    async def mentioning(
        self, owner: Owner, name_indexes: Collection[str], limit: int, max_share: float = 1.0
    ) -> list[UUID]:
        """The owner's memories that mention an entity with one of these name indexes,
        leaving out entities mentioned by more than `max_share` of the owner's memories
        (and more than COMMON_NAME_FLOOR);
        most salient mention first, then newest memory; at most `limit`."""

    @abstractmethod
    async def mentions_of(self, owner: Owner, memory_ids: Collection[UUID]) -> list[StoredMention]:
        """Every mention by one of these memories, with its entity."""

    @abstractmethod
    async def known(self, owner: Owner, name_indexes: Collection[str]) -> set[str]:
        """The name indexes among these that the owner already has an entity for (the
        heuristic gate's "a name new to this user's graph")."""
