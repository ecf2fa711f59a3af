"""EntityPort: an owner's entity nodes and the memories that mention them."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Sequence
from datetime import datetime
from uuid import UUID

from memlane.domain.entity_nodes import SealedMention, StoredMention
from memlane.domain.model import Owner


class EntityPort(ABC):
    """Entities per owner, found by blind name index; a memory's deletion takes its
    mentions with it, and an entity no memory mentions any more is gone too."""

    @abstractmethod
    async def add_mentions(
        self, owner: Owner, mentions: Sequence[SealedMention], now: datetime
    ) -> int:
        """Upsert the entities by (name index, kind) — an existing one keeps its id and
        label, takes the higher weight and is activated at `now` — and store the mentions
        (a repeated one keeps the higher salience). A tentative mention makes no entity:
        it joins the owner's entities of its name index (any kind) or is dropped. Mentions
        of another owner's or a missing memory are skipped. Returns how many mentions were
        stored."""

    @abstractmethod
    async def mentioning(
        self, owner: Owner, name_indexes: Collection[str], limit: int
    ) -> list[UUID]:
        """The owner's memories that mention an entity with one of these name indexes (any
        kind), most salient mention first, then newest memory; at most `limit`."""

    @abstractmethod
    async def mentions_of(self, owner: Owner, memory_ids: Collection[UUID]) -> list[StoredMention]:
        """Every mention by one of these memories, with its entity."""
