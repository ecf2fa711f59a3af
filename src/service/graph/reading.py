"""Reading and editing one memory's neighbourhood in the graph."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from datetime import datetime
from uuid import UUID

from memlane.domain.errors import DecryptionFailed, InvalidMemory, MemoryNotFound
from memlane.domain.graph import Edge, EdgeKind, check_weight, strength
from memlane.domain.model import Memory, Owner
from memlane.ports.clock import Clock
from memlane.ports.graph import GraphPort
from memlane.ports.memories import MemoryStorePort
from memlane.service.entities import EntityLinker
from memlane.service.memories import audit as memory_audit
from memlane.service.security import AuditTrail, Sealer

MAX_DEPTH = 3
MAX_NODES = 200
# What a caller may link by hand; the other kinds are the graph's own to make.
STATED_KINDS = frozenset({EdgeKind.CAUSAL, EdgeKind.TEMPORAL, EdgeKind.NARRATIVE})
STATED_WEIGHT = 1.0


@dataclass(frozen=True, slots=True)
class EntityNode:
    """A person, place, organisation, product or pet a memory in view names (label opened)."""

    id: UUID
    label: str
    kind: str
    weight: float


@dataclass(frozen=True, slots=True)
class Neighbourhood:
    """A memory and what lies within `depth` edges of it; weights are strengths now.
    `entities` are what the memories in view name, joined to them by `mentions` (edges
    memory -> entity of kind entity, weighted by salience): leaves, not walked through."""

    nodes: tuple[Memory, ...]
    edges: tuple[Edge, ...]
    entities: tuple[EntityNode, ...] = ()
    mentions: tuple[Edge, ...] = ()


class GraphView:
    """The graph as the API and in-process callers see it, owner-scoped like memories."""

    def __init__(
        self, graph: GraphPort, store: MemoryStorePort, sealer: Sealer, clock: Clock,
        trail: AuditTrail, names: EntityLinker | None = None,
    ) -> None:
        """`names`: show the entities the memories in view name (when `kinds` allows)."""
        self._graph = graph
        self._store = store
        self._sealer = sealer
        self._clock = clock
        self._trail = trail
        self._names = names

    async def neighbourhood(
        self,
        owner: Owner,
        memory_id: UUID,
        depth: int = 1,
        kinds: Collection[EdgeKind] | None = None,
    ) -> Neighbourhood:
        if not 1 <= depth <= MAX_DEPTH:
            raise InvalidMemory(f"depth must be between 1 and {MAX_DEPTH}")
        if await self._store.get(owner, memory_id) is None:
            raise MemoryNotFound(memory_id)
        now = self._clock()
        seen, frontier = {memory_id}, {memory_id}
        edges: dict[tuple[UUID, UUID, EdgeKind], Edge] = {}
        for _ in range(depth):
            if not frontier or len(seen) >= MAX_NODES:
                break
            found = await self._graph.edges_of(owner, frontier, kinds)
            reached: set[UUID] = set()
            for edge in found:
                ends = {edge.source, edge.target} - seen
                if len(seen | reached | ends) > MAX_NODES:
                    continue
                edges[edge.key] = replace(edge, weight=strength(edge, now))
                reached |= ends
            seen |= reached
            frontier = reached
        rows = await self._store.get_many(owner, list(seen), indexed=False)
        opened = [m for m in (self._sealer.readable(r, now) for r in rows) if m is not None]
        nodes = sorted(opened, key=lambda m: m.created_at)
        named: tuple[tuple[EntityNode, ...], tuple[Edge, ...]] = ((), ())
        if self._names is not None and (kinds is None or EdgeKind.ENTITY in kinds):
            named = await self._named(owner, [m.id for m in nodes], MAX_NODES - len(nodes), now)
        return Neighbourhood(tuple(nodes), tuple(edges.values()), *named)

    async def _named(
        self, owner: Owner, memory_ids: list[UUID], room: int, now: datetime
    ) -> tuple[tuple[EntityNode, ...], tuple[Edge, ...]]:
        """The entities these memories mention (the most salient first, at most `room`),
        with one edge per mention; one read, labels opened here."""
        assert self._names is not None
        entities: dict[UUID, EntityNode] = {}
        mentions: list[Edge] = []
        found = await self._names.mentions_of(owner, memory_ids) if memory_ids else []
        for mention in sorted(found, key=lambda m: (-m.salience, str(m.entity_id))):
            if mention.entity_id not in entities:
                if len(entities) >= room:
                    continue
                try:
                    label = self._names.open_label(owner, mention.entity_id, mention.label)
                except DecryptionFailed:
                    continue  # a damaged label hides its node, never the whole view
                entities[mention.entity_id] = EntityNode(
                    mention.entity_id, label, mention.kind.value, mention.entity_weight
                )
            mentions.append(Edge(
                mention.memory_id, mention.entity_id, EdgeKind.ENTITY, mention.salience, now, now
            ))
        return tuple(entities.values()), tuple(mentions)

    async def connect(
        self, owner: Owner, source: UUID, target: UUID, kind: EdgeKind, weight: float | None
    ) -> Edge:
        """A stated edge source -> target; both must be the owner's memories."""
        if kind not in STATED_KINDS:
            allowed = ", ".join(sorted(k.value for k in STATED_KINDS))
            raise InvalidMemory(f"edges of kind {kind.value!r} are made by memlane; use {allowed}")
        if source == target:
            raise InvalidMemory("an edge joins two different memories")
        try:
            value = STATED_WEIGHT if weight is None else check_weight(weight)
        except ValueError as error:
            raise InvalidMemory(str(error)) from None
        found = {m.id for m in await self._store.get_many(owner, [source, target], indexed=False)}
        missing = next((i for i in (source, target) if i not in found), None)
        if missing is not None:
            raise MemoryNotFound(missing)
        now = self._clock()
        edge = Edge(source, target, kind, value, now, now)
        async with self._trail.change(owner) as changes:
            await self._graph.add_edges(owner, [edge], cap_per_node=MAX_NODES)
            changes.add(memory_audit.edge_created(edge))
        return edge

    async def disconnect(
        self, owner: Owner, source: UUID, target: UUID, kind: EdgeKind | None
    ) -> None:
        """Remove the edge(s) source -> target; MemoryNotFound when there is none."""
        async with self._trail.change(owner) as changes:
            if not await self._graph.remove_edge(owner, source, target, kind):
                raise MemoryNotFound(target)
            changes.add(memory_audit.edge_removed(source, target, None if kind is None
                                                  else kind.value))
