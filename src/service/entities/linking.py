"""Entities at write: the memory's plaintext is read for names before it is sealed, and
each name becomes (or strengthens) an entity node of the owner with a mention edge."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID, uuid4

from memlane.domain.entities import (
    LABEL_FIELD,
    EntityKind,
    EntityMention,
    SealedMention,
    StoredMention,
    mentions_in,
    name_terms,
    normalise_entity_name,
    tentative,
)
from memlane.domain.model import Owner
from memlane.ports.encryption import EncryptionPort, FieldBinding
from memlane.ports.entities import EntityPort


@dataclass(frozen=True, slots=True)
class Named:
    """A memory to read for names: its id, the text embedded for it, who spoke in it."""

    memory_id: UUID
    text: str
    speakers: tuple[str, ...] = ()


class EntityLinker:
    """Recognises the entities of a batch of memories and stores them in one call."""

    def __init__(self, entities: EntityPort, encryption: EncryptionPort) -> None:
        self._entities = entities
        self._encryption = encryption

    def sealed(self, owner: Owner, named: Sequence[Named]) -> list[SealedMention]:
        """The batch's mentions, recognised in each memory's text."""
        found = [(n.memory_id, m) for n in named for m in mentions_in(n.text, n.speakers)]
        return self._sealed(owner, found)

    def _sealed(
        self, owner: Owner, found: Sequence[tuple[UUID, EntityMention]]
    ) -> list[SealedMention]:
        """Names blinded in one call, one proposed id and sealed label per (name, kind)."""
        if not found:
            return []
        keys = list(dict.fromkeys(m.key for _, m in found))
        indexes = dict(
            zip(keys, self._encryption.blind_terms(owner.tenant, name_terms(keys)), strict=True)
        )
        nodes: dict[tuple[str, EntityKind], tuple[UUID, bytes]] = {}
        sealed: list[SealedMention] = []
        for memory_id, mention in found:
            node = nodes.get((mention.key, mention.kind))
            if node is None:
                entity_id = uuid4()
                binding = FieldBinding(owner.tenant, owner.user_id, entity_id, LABEL_FIELD)
                node = nodes[(mention.key, mention.kind)] = (
                    entity_id, self._encryption.seal(mention.name, binding),
                )
            sealed.append(SealedMention(
                memory_id, node[0], indexes[mention.key], mention.kind, node[1],
                mention.salience,
            ))
        return sealed

    async def link(self, owner: Owner, named: Sequence[Named], now: datetime) -> int:
        """Store the batch's entities and mentions; how many mentions were stored."""
        # Reading a batch for names is pure CPU (~0.1 ms a sentence): off the event loop.
        mentions = await asyncio.to_thread(self.sealed, owner, named)
        return await self._entities.add_mentions(owner, mentions, now) if mentions else 0

    async def new_names(self, owner: Owner, named: Sequence[Named]) -> list[int]:
        """Per memory, how many names it says that the owner's graph does not hold yet (a
        name new earlier in the batch is not new again); names too uncertain to make a node
        never count. One lookup for the batch."""
        found = await asyncio.to_thread(
            lambda: [[m.key for m in mentions_in(n.text, n.speakers)
                      if not tentative(m.salience)] for n in named])
        keys = list(dict.fromkeys(k for names in found for k in names))
        if not keys:
            return [0] * len(named)
        indexes = dict(
            zip(keys, self._encryption.blind_terms(owner.tenant, name_terms(keys)), strict=True)
        )
        seen = await self._entities.known(owner, list(indexes.values()))
        counts = []
        for names in found:
            fresh = {indexes[k] for k in names} - seen
            counts.append(len(fresh))
            seen |= fresh
        return counts

    async def restore(
        self, owner: Owner, given: Sequence[tuple[UUID, str, EntityKind, float]], now: datetime
    ) -> int:
        """Store stated mentions (memory, name, kind, salience), as an import carries them."""
        found = [
            (memory_id, EntityMention(name, kind, 0, len(name), salience))
            for memory_id, name, kind, salience in given if name
        ]
        mentions = self._sealed(owner, found)
        return await self._entities.add_mentions(owner, mentions, now) if mentions else 0

    async def names_of(self, owner: Owner, memory_ids: Sequence[UUID]) -> list[str]:
        """The names of the entities these memories mention, most salient first, once each."""
        mentions = sorted(await self._entities.mentions_of(owner, memory_ids),
                          key=lambda m: -m.salience)
        labels = dict.fromkeys((m.entity_id, m.label) for m in mentions)
        return list(dict.fromkeys(self.open_label(owner, i, label) for i, label in labels))

    async def naming(
        self, owner: Owner, names: Sequence[str], limit: int
    ) -> dict[str, list[UUID]]:
        """Per name, the owner's memories that mention its entity (most salient mention
        first, then newest), at most `limit` each; one lookup per name."""
        keys = {name: normalise_entity_name(name) for name in names}
        distinct = [k for k in dict.fromkeys(keys.values()) if k]
        terms = self._encryption.blind_terms(owner.tenant, name_terms(distinct)) if distinct else []
        indexes = dict(zip(distinct, terms, strict=True))
        found: dict[str, list[UUID]] = {}
        for name, key in keys.items():
            # A patch names a few entities (at most MAX_EDGES): a lookup each keeps them apart.
            found[name] = [] if not key else await self._entities.mentioning(
                owner, [indexes[key]], limit)
        return found

    async def mentions_of(self, owner: Owner, memory_ids: Sequence[UUID]) -> list[StoredMention]:
        return await self._entities.mentions_of(owner, memory_ids)

    def open_label(self, owner: Owner, entity_id: UUID, label: bytes) -> str:
        """An entity's name as it was first written (for the owner's own export)."""
        binding = FieldBinding(owner.tenant, owner.user_id, entity_id, LABEL_FIELD)
        return self._encryption.open(label, binding)
