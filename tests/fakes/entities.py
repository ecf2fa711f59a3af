"""FakeEntities: an in-memory EntityPort over a FakeMemoryTable, with the adapter's semantics."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from memlane.domain.entities.nodes import COMMON_NAME_FLOOR, SealedMention, StoredMention
from memlane.domain.entities.recognition import EntityKind
from memlane.domain.model import Owner
from memlane.ports.entities import EntityPort
from tests.fakes.memory_table import FakeMemoryTable


@dataclass
class _Node:
    id: UUID
    kind: EntityKind
    name_index: str
    label: bytes
    weight: float
    activated_at: datetime


class FakeEntities(EntityPort):
    """Entities per owner; mentions of memories no longer in the table are gone, and so is
    an entity no memory mentions, as by the delete trigger."""

    def __init__(self, table: FakeMemoryTable) -> None:
        self._table = table
        self._nodes: dict[Owner, dict[tuple[str, EntityKind], _Node]] = {}
        self._mentions: dict[Owner, dict[tuple[UUID, UUID], float]] = {}

    def _live(self, owner: Owner) -> tuple[dict[tuple[str, EntityKind], _Node],
                                           dict[tuple[UUID, UUID], float]]:
        rows = self._table._rows.get(owner, {})
        nodes = self._nodes.setdefault(owner, {})
        mentions = self._mentions.setdefault(owner, {})
        gone = [k for k in mentions if k[0] not in rows]
        orphans = {k[1] for k in gone}
        for key in gone:
            del mentions[key]
        alive = {entity for _, entity in mentions}
        for key in [k for k, n in nodes.items() if n.id in orphans and n.id not in alive]:
            del nodes[key]
        return nodes, mentions

    async def add_mentions(
        self, owner: Owner, mentions: Sequence[SealedMention], now: datetime
    ) -> int:
        nodes, stored = self._live(owner)
        rows = self._table._rows.get(owner, {})
        mine = [m for m in mentions if m.memory_id in rows]
        by_name = {n.name_index: n for n in nodes.values()}
        for mention in sorted(mine, key=lambda m: -m.salience):  # the most salient first
            if mention.tentative:
                continue
            node = by_name.get(mention.name_index)
            if node is None:
                node = by_name[mention.name_index] = nodes[(mention.name_index, mention.kind)] = (
                    _Node(mention.entity_id, mention.kind, mention.name_index, mention.label,
                          mention.salience, now)
                )
            node.weight = max(node.weight, mention.salience)
            node.activated_at = max(node.activated_at, now)
        count = 0
        for mention in mine:
            node = by_name.get(mention.name_index)
            if node is not None:
                pair = (mention.memory_id, node.id)
                stored[pair] = max(stored.get(pair, 0.0), mention.salience)
                count += 1
        return count

    async def mentioning(
        self, owner: Owner, name_indexes: Collection[str], limit: int, max_share: float = 1.0
    ) -> list[UUID]:
        nodes, mentions = self._live(owner)
        rows = self._table._rows.get(owner, {})
        most = max(COMMON_NAME_FLOOR, max_share * len(rows))
        counts: dict[UUID, int] = {}
        for _, entity_id in mentions:
            counts[entity_id] = counts.get(entity_id, 0) + 1
        wanted = {
            n.id for n in nodes.values()
            if n.name_index in set(name_indexes) and counts.get(n.id, 0) <= most
        }
        best: dict[UUID, float] = {}
        for (memory_id, entity_id), salience in mentions.items():
            if entity_id in wanted:
                best[memory_id] = max(best.get(memory_id, 0.0), salience)
        ranked = sorted(
            best, key=lambda m: (-best[m], -rows[m].created_at.timestamp(), str(m))
        )
        return ranked[: max(0, limit)]

    async def mentions_of(self, owner: Owner, memory_ids: Collection[UUID]) -> list[StoredMention]:
        nodes, mentions = self._live(owner)
        by_id = {n.id: n for n in nodes.values()}
        wanted = set(memory_ids)
        return [
            StoredMention(
                memory_id=memory_id, entity_id=entity_id, kind=by_id[entity_id].kind,
                label=by_id[entity_id].label, salience=salience,
                entity_weight=by_id[entity_id].weight,
            )
            for (memory_id, entity_id), salience in mentions.items()
            if memory_id in wanted
        ]

    async def known(self, owner: Owner, name_indexes: Collection[str]) -> set[str]:
        nodes, _ = self._live(owner)
        held = {n.name_index for n in nodes.values()}
        return {i for i in name_indexes if i in held}


def fake_entities_for(ports: object) -> FakeEntities:
    """A FakeEntities over the same table as `fake_memory_ports(...)`'s fakes."""
    return FakeEntities(ports.store._table)  # type: ignore[attr-defined]
