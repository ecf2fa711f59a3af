"""The reference MCP memory server's knowledge graph, as memlane memories: entities,
observations and relations, the tags that find them and the texts they are stored as."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from memlane.domain.errors import InvalidMemory, MemlaneError
from memlane.domain.model import MemoryType, NewMemory

KG_KEY = "kg"  # metadata: which part of the knowledge graph a memory is (never its text)
ENTITY, OBSERVATION, RELATION = "entity", "observation", "relation"
ROLE_TAGS = {ENTITY: "kg:entity", OBSERVATION: "kg:observation", RELATION: "kg:relation"}
# Tags carrying a (blinded) entity name: an entity's own, an observation's entity, a
# relation's two ends. A name becomes a tag only through `name_tag`.
NAME, OF, FROM, TO = "kg:name:", "kg:of:", "kg:from:", "kg:to:"
MAX_NAME_CHARS = 200
MAX_TYPE_CHARS = 64


class EntityNotFound(MemlaneError):
    """No entity of that name in the owner's knowledge graph."""

    def __init__(self, name: str) -> None:
        super().__init__(f"no entity named {name!r}; create it with create_entities first")
        self.name = name


@dataclass(frozen=True, slots=True)
class Entity:
    name: str
    entity_type: str
    observations: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Relation:
    source: str
    target: str
    relation_type: str


@dataclass(frozen=True, slots=True)
class KnowledgeGraph:
    entities: tuple[Entity, ...]
    relations: tuple[Relation, ...]


def name_key(name: str) -> str:
    """What two names must share to be one entity: case and spacing do not count."""
    return " ".join(name.split()).casefold()


def name_token(blinded: str) -> str:
    """The token a name's tags carry, from its blinded key: hashed again so that it fits a tag
    whatever the blinding (with encryption off the blind term is the name itself)."""
    return hashlib.sha256(blinded.encode("utf-8")).hexdigest()[:32]


def role_of(metadata: Mapping[str, Any]) -> str | None:
    """The knowledge-graph role of a memory (None for an ordinary memory)."""
    role = metadata.get(KG_KEY)
    return role if role in ROLE_TAGS else None


def token_in(tags: tuple[str, ...], prefix: str) -> str | None:
    """The name token of the first tag with this prefix."""
    return next((t[len(prefix):] for t in tags if t.startswith(prefix)), None)


def check_name(name: object, what: str = "an entity name") -> str:
    if not isinstance(name, str) or not name.strip():
        raise InvalidMemory(f"{what} must be a non-empty string")
    name = " ".join(name.split())
    if len(name) > MAX_NAME_CHARS:
        raise InvalidMemory(f"{what} is longer than {MAX_NAME_CHARS} characters")
    return name


def check_type(value: object, what: str) -> str:
    """An entity or relation type: one short line without parentheses (they delimit it)."""
    text = check_name(value, what)
    if len(text) > MAX_TYPE_CHARS or "(" in text or ")" in text:
        raise InvalidMemory(f"{what} must be at most {MAX_TYPE_CHARS} characters, no parentheses")
    return text


def check_observation(text: object) -> str:
    if not isinstance(text, str) or not text.strip():
        raise InvalidMemory("an observation must be a non-empty string")
    return text.strip()


def entity_text(name: str, entity_type: str) -> str:
    return f"{name} ({entity_type})"


def parse_entity(content: str) -> tuple[str, str]:
    """(name, type) from an entity memory's text; an edited text is all name."""
    if content.endswith(")") and " (" in content:
        name, entity_type = content[:-1].rsplit(" (", 1)
        return name, entity_type
    return content, ""


def observation_text(entity: str, observation: str) -> str:
    # The entity leads, so the memory reads on its own in a recall or a prompt context.
    return f"{entity}: {observation}"


def parse_observation(entity: str, content: str) -> str:
    prefix = f"{entity}: "
    return content[len(prefix):] if content.startswith(prefix) else content


def relation_text(source: str, relation_type: str, target: str) -> str:
    return f"{source} {relation_type} {target}"


def parse_relation(source: str, target: str, content: str) -> str:
    head, tail = f"{source} ", f" {target}"
    if content.startswith(head) and content.endswith(tail) and len(content) > len(head + tail):
        return content[len(head):-len(tail)]
    return content


# Every node is a fact: its floor lies above cleanup's min_importance, so an unused node
# sinks in ranking but is never deleted by cleanup (the reference server forgets nothing).
def entity_memory(token: str, entity: Entity) -> NewMemory:
    """The memory an entity is stored as, found by its name token."""
    return NewMemory(
        content=entity_text(entity.name, entity.entity_type),
        memory_type=MemoryType.FACT,
        tags=(ROLE_TAGS[ENTITY], NAME + token),
        metadata={KG_KEY: ENTITY},
    )


def observation_memory(token: str, name: str, text: str) -> NewMemory:
    return NewMemory(
        content=observation_text(name, text),
        memory_type=MemoryType.FACT,
        tags=(ROLE_TAGS[OBSERVATION], OF + token),
        metadata={KG_KEY: OBSERVATION},
    )


def relation_memory(ends: tuple[str, str], key: tuple[str, str, str]) -> NewMemory:
    source, target, relation_type = key
    return NewMemory(
        content=relation_text(source, relation_type, target),
        memory_type=MemoryType.FACT,
        tags=(ROLE_TAGS[RELATION], FROM + ends[0], TO + ends[1]),
        metadata={KG_KEY: RELATION},
    )
