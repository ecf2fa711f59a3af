"""The reference MCP memory server's knowledge graph on memlane's memories and edges.

An entity is a memory "<name> (<type>)"; each observation is a memory "<name>: <text>" with an
entity edge to it; a relation is a memory "<from> <type> <to>" with entity edges to both
ends. Names are found by tags carrying a blinded name token, so no name is stored in clear
(see docs/mcp.md)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta
from uuid import UUID

from memlane.domain.errors import InvalidMemory
from memlane.domain.graph import (
    Edge,
    EdgeKind,
    Entity,
    EntityNotFound,
    KnowledgeGraph,
    Relation,
    knowledge as kg,
)
from memlane.domain.model import (
    Memory,
    MemoryFilter,
    NewMemory,
    Owner,
    RememberResult,
)
from memlane.ports.clock import Clock, system_clock
from memlane.ports.encryption import EncryptionPort
from memlane.ports.graph import GraphPort
from memlane.service.graph.knowledge_snapshot import Snapshot
from memlane.service.graph.reading import MAX_NODES
from memlane.service.memory_service import MemoryService

PAGE = 500
SEARCH_HITS = 50
LINK_WEIGHT = 1.0


class KnowledgeGraphService:
    """create_entities, create_relations, add_observations, read_graph, open_nodes,
    search_nodes: the reference server's semantics, owner-scoped and encrypted."""

    def __init__(
        self,
        memories: MemoryService,
        encryption: EncryptionPort,
        graph: GraphPort | None,
        clock: Clock = system_clock,
    ) -> None:
        """Without `graph` the nodes are still found by their tags, only not linked."""
        self._memories = memories
        self._encryption = encryption
        self._graph = graph
        self._clock = clock

    def _tokens(self, owner: Owner, names: Sequence[str]) -> list[str]:
        blinded = self._encryption.blind_terms(owner.tenant, [kg.name_key(n) for n in names])
        return [kg.name_token(b) for b in blinded]

    async def create_entities(self, owner: Owner, entities: Sequence[Entity]) -> list[Entity]:
        """Store the entities not there yet (by name) with their observations; the new ones."""
        checked = [
            Entity(
                kg.check_name(e.name),
                kg.check_type(e.entity_type, "an entity type"),
                tuple(dict.fromkeys(kg.check_observation(o) for o in e.observations)),
            )
            for e in entities
        ]
        snapshot = await self._snapshot(owner)
        fresh: dict[str, Entity] = {}
        for token, entity in zip(self._tokens(owner, [e.name for e in checked]), checked,
                                 strict=True):
            if token not in snapshot.entities and token not in fresh:
                fresh[token] = entity
        items = [kg.entity_memory(t, e) for t, e in fresh.items()]
        said = [(t, e.name, o) for t, e in fresh.items() for o in e.observations]
        items += [kg.observation_memory(t, name, o) for t, name, o in said]
        results = await self._remember(owner, items)
        ids = {t: r.memory.id for t, r in zip(fresh, results, strict=False)}
        links = [(r.memory.id, ids[t]) for (t, _, _), r in zip(said, results[len(fresh):],
                                                                 strict=True)]
        await self._link(owner, links)
        return list(fresh.values())

    async def add_observations(
        self, owner: Owner, observations: Sequence[tuple[str, Sequence[str]]]
    ) -> list[tuple[str, tuple[str, ...]]]:
        """Add observations to existing entities (texts already there are skipped); per
        entity, its name and the texts added. An unknown entity changes nothing."""
        checked = [
            (kg.check_name(name), [kg.check_observation(o) for o in texts])
            for name, texts in observations
        ]
        snapshot = await self._snapshot(owner)
        tokens = self._tokens(owner, [name for name, _ in checked])
        missing = next((n for (n, _), t in zip(checked, tokens, strict=True)
                        if t not in snapshot.entities), None)
        if missing is not None:
            raise EntityNotFound(missing)
        added: dict[str, list[str]] = {}
        for token, (_, texts) in zip(tokens, checked, strict=True):
            known = set(snapshot.entity(token).observations) | set(added.get(token, []))
            added.setdefault(token, []).extend(t for t in dict.fromkeys(texts) if t not in known)
        said = [(t, snapshot.name(t), o) for t, texts in added.items() for o in texts]
        results = await self._remember(
            owner, [kg.observation_memory(t, name, o) for t, name, o in said]
        )
        entity_ids = {t: snapshot.entities[t].id for t in added}
        await self._link(owner, [(r.memory.id, entity_ids[t]) for (t, _, _), r
                                 in zip(said, results, strict=True)])
        return [(snapshot.name(t), tuple(texts)) for t, texts in added.items()]

    async def create_relations(self, owner: Owner, relations: Sequence[Relation]) -> list[Relation]:
        """Store the relations not there yet between existing entities; the new ones."""
        checked = [
            (
                kg.check_name(r.source, "a relation's from"),
                kg.check_name(r.target, "a relation's to"),
                kg.check_type(r.relation_type, "a relation type"),
            )
            for r in relations
        ]
        snapshot = await self._snapshot(owner)
        names = [n for source, target, _ in checked for n in (source, target)]
        tokens = dict(zip(names, self._tokens(owner, names), strict=True))
        missing = next((n for n in names if tokens[n] not in snapshot.entities), None)
        if missing is not None:
            raise EntityNotFound(missing)
        known = {(r.source, r.target, r.relation_type) for m in snapshot.relations
                 if (r := snapshot.relation(m)) is not None}
        fresh: dict[tuple[str, str, str], tuple[str, str]] = {}
        for source, target, relation_type in checked:
            ends = (tokens[source], tokens[target])
            key = (snapshot.name(ends[0]), snapshot.name(ends[1]), relation_type)
            if key not in known and key not in fresh:
                fresh[key] = ends
        results = await self._remember(owner, [
            kg.relation_memory(ends, key) for key, ends in fresh.items()
        ])
        await self._link(owner, [
            (r.memory.id, snapshot.entities[end].id)
            for r, ends in zip(results, fresh.values(), strict=True) for end in ends
        ])
        return [Relation(*key) for key in fresh]

    async def read_graph(self, owner: Owner) -> KnowledgeGraph:
        snapshot = await self._snapshot(owner)
        oldest_first = sorted(snapshot.entities, key=lambda t: snapshot.entities[t].created_at)
        return snapshot.view(oldest_first, both_ends=True)

    async def open_nodes(self, owner: Owner, names: Sequence[str]) -> KnowledgeGraph:
        """The named entities (unknown names are left out) and every relation touching them."""
        checked = [kg.check_name(n) for n in names]
        snapshot = await self._snapshot(owner)
        return snapshot.view(self._tokens(owner, checked), both_ends=False)

    async def search_nodes(self, owner: Owner, query: str) -> KnowledgeGraph:
        """Entities whose name, type or observations match the query, by memlane's hybrid
        search and by substring, with the relations between them."""
        if not isinstance(query, str) or not query.strip():
            raise InvalidMemory("query must be a non-empty string")
        snapshot, hits = await asyncio.gather(
            self._snapshot(owner),
            self._memories.search(
                owner, query, limit=SEARCH_HITS,
                min_similarity=self._memories.policy.rag_threshold,
            ),
        )
        found: list[str] = []
        for hit in hits:
            role, tags = kg.role_of(hit.memory.metadata), hit.memory.tags
            prefixes = {kg.ENTITY: (kg.NAME,), kg.OBSERVATION: (kg.OF,),
                        kg.RELATION: (kg.FROM, kg.TO)}.get(role or "", ())
            found += [t for p in prefixes if (t := kg.token_in(tags, p)) is not None]
        needle = query.strip().casefold()
        for token in snapshot.entities:
            entity = snapshot.entity(token)
            texts = (entity.name, entity.entity_type, *entity.observations)
            if any(needle in text.casefold() for text in texts):
                found.append(token)
        return snapshot.view(found, both_ends=True)

    # -- storage -----------------------------------------------------------------------------
    async def _snapshot(self, owner: Owner) -> Snapshot:
        entities, observations, relations = await asyncio.gather(
            *(self._all(owner, role) for role in (kg.ENTITY, kg.OBSERVATION, kg.RELATION))
        )
        snapshot = Snapshot(relations=relations)
        for memory in reversed(entities):  # oldest first: the first of a name wins
            token = kg.token_in(memory.tags, kg.NAME)
            if token is not None:
                snapshot.entities.setdefault(token, memory)
        for memory in reversed(observations):
            token = kg.token_in(memory.tags, kg.OF)
            if token is not None:
                snapshot.observations.setdefault(token, []).append(memory)
        return snapshot

    async def _all(self, owner: Owner, role: str) -> list[Memory]:
        """Every memory of one role, newest first."""
        found: list[Memory] = []
        cursor = None
        while True:
            page = await self._memories.list(
                owner, MemoryFilter(tag=kg.ROLE_TAGS[role]), cursor, PAGE
            )
            found += [m for m in page.items if kg.role_of(m.metadata) == role]
            if page.next_cursor is None:
                return found
            cursor = page.next_cursor

    async def _remember(self, owner: Owner, items: Sequence[NewMemory]) -> list[RememberResult]:
        """Store the nodes a microsecond apart, so they read back in the order given."""
        now = self._clock()
        timed = [
            replace(n, created_at=now + timedelta(microseconds=i)) for i, n in enumerate(items)
        ]
        return await self._memories.remember_many(owner, timed)

    async def _link(self, owner: Owner, pairs: Sequence[tuple[UUID, UUID]]) -> None:
        """Entity edges node -> entity, so retrieval's graph expansion walks the graph too."""
        if self._graph is None or not pairs:
            return
        now = self._clock()
        edges = [Edge(s, t, EdgeKind.ENTITY, LINK_WEIGHT, now, now)
                 for s, t in dict.fromkeys(pairs) if s != t]
        await self._graph.add_edges(owner, edges, cap_per_node=MAX_NODES)
