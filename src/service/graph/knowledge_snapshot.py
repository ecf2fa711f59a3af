"""An owner's knowledge graph as read from its memories, and views of it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from memlane.domain.graph import Entity, KnowledgeGraph, Relation, knowledge as kg
from memlane.domain.model import Memory


@dataclass
class Snapshot:
    """An owner's graph as read: entity memories by token, their observations, relations."""

    entities: dict[str, Memory] = field(default_factory=dict)
    observations: dict[str, list[Memory]] = field(default_factory=dict)
    relations: list[Memory] = field(default_factory=list)

    def name(self, token: str) -> str:
        return kg.parse_entity(self.entities[token].content)[0]

    def entity(self, token: str) -> Entity:
        name, entity_type = kg.parse_entity(self.entities[token].content)
        said = self.observations.get(token, [])
        return Entity(name, entity_type, tuple(kg.parse_observation(name, m.content) for m in said))

    def ends(self, memory: Memory) -> tuple[str, str] | None:
        source = kg.token_in(memory.tags, kg.FROM)
        target = kg.token_in(memory.tags, kg.TO)
        if source in self.entities and target in self.entities:
            return source, target  # type: ignore[return-value]
        return None

    def relation(self, memory: Memory) -> Relation | None:
        ends = self.ends(memory)
        if ends is None:
            return None
        source, target = self.name(ends[0]), self.name(ends[1])
        return Relation(source, target, kg.parse_relation(source, target, memory.content))

    def view(self, tokens: Iterable[str], *, both_ends: bool) -> KnowledgeGraph:
        """The entities of `tokens` and the relations touching them (both ends, or either)."""
        chosen = [t for t in dict.fromkeys(tokens) if t in self.entities]
        inside = set(chosen)
        relations = []
        for memory in self.relations:
            ends = self.ends(memory)
            hits = ends is not None and [e in inside for e in ends]
            if hits and (all(hits) if both_ends else any(hits)):
                relations.append(self.relation(memory))
        return KnowledgeGraph(
            tuple(self.entity(t) for t in chosen), tuple(r for r in relations if r is not None)
        )
