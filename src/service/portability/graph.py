"""Export and import of an owner's graph: edges and entities travel with the memories."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from memlane.domain.graph import Edge
from memlane.domain.model import Owner
from memlane.domain.policy import GraphTuning
from memlane.domain.portability import (
    EDGE,
    ENTITY,
    PortableEntity,
    edge_to_record,
    entity_to_record,
    record_to_edge,
    record_to_entity,
    record_type,
)
from memlane.ports.graph import GraphPort
from memlane.service.entities import EntityLinker

# Memories whose edges and mentions are read in one statement.
CHUNK = 1000


class GraphPorting:
    """Reads the graph of exported memories; stores an imported graph under new ids."""

    def __init__(
        self, graph: GraphPort, names: EntityLinker | None, tuning: GraphTuning
    ) -> None:
        self._graph = graph
        self._names = names
        self._tuning = tuning

    async def records(
        self, owner: Owner, memory_ids: Sequence[UUID]
    ) -> AsyncIterator[dict[str, Any]]:
        """The edges between these memories, then their entities with their mentions."""
        exported = set(memory_ids)
        seen: set[tuple[UUID, UUID, str]] = set()
        for start in range(0, len(memory_ids), CHUNK):
            for edge in await self._graph.edges_of(owner, memory_ids[start : start + CHUNK]):
                key = (edge.source, edge.target, edge.kind.value)
                if key not in seen and edge.source in exported and edge.target in exported:
                    seen.add(key)
                    yield edge_to_record(edge)
        if self._names is None:
            return
        entities: dict[UUID, tuple[str, Any, list[tuple[UUID, float]]]] = {}
        for start in range(0, len(memory_ids), CHUNK):
            chunk = memory_ids[start : start + CHUNK]
            for m in await self._names.mentions_of(owner, chunk):
                if m.entity_id not in entities:
                    name = self._names.open_label(owner, m.entity_id, m.label)
                    entities[m.entity_id] = (name, m.kind, [])
                entities[m.entity_id][2].append((m.memory_id, m.salience))
        for name, kind, mentions in entities.values():
            yield entity_to_record(PortableEntity(name, kind, tuple(mentions)))

    async def restore(
        self,
        owner: Owner,
        records: Sequence[Mapping[str, Any]],
        ids: Mapping[UUID, UUID],
        now: datetime,
    ) -> tuple[int, int]:
        """Store the edges and mentions of imported memories (`ids`: exported id -> the
        memory it became); how many edges and mentions were stored. Malformed records
        raise InvalidMemory before anything is stored."""
        edges: list[Edge] = []
        mentions = []
        for record in records:
            kind = record_type(record)
            if kind == EDGE and (edge := record_to_edge(record, ids)) is not None:
                edges.append(edge)
            elif kind == ENTITY:
                entity = record_to_entity(record, ids)
                mentions += [(m, entity.name, entity.kind, s) for m, s in entity.mentions]
        stored = await self._graph.add_edges(
            owner, edges, cap_per_node=self._tuning.max_semantic_edges
        ) if edges else 0
        named = await self._names.restore(owner, mentions, now) if self._names else 0
        return stored, named
