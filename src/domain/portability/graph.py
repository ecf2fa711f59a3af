"""The portable form of an owner's graph: edges and entities as NDJSON records beside the
memories, naming memories by their exported ids."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from memlane.domain.entities import EntityKind
from memlane.domain.errors import InvalidMemory
from memlane.domain.graph import Edge, EdgeKind, check_weight
from memlane.domain.portability.facts import FACT, check_fact_record
from memlane.domain.portability.memories import FORMAT_VERSION

RECORD_KEY = "record"  # absent on a memory record (and in exports older than the graph)
EDGE, ENTITY, MEMORY = "edge", "entity", "memory"


def record_type(record: Mapping[str, Any]) -> str:
    """What a line of an export holds: a memory, an edge, an entity or a fact."""
    kind = record.get(RECORD_KEY, MEMORY)
    if kind not in (MEMORY, EDGE, ENTITY, FACT):
        raise InvalidMemory(f"not a memlane export record: unknown record {kind!r}")
    return str(kind)


def edge_to_record(edge: Edge) -> dict[str, Any]:
    return {
        "format": FORMAT_VERSION,
        RECORD_KEY: EDGE,
        "source": str(edge.source),
        "target": str(edge.target),
        "kind": edge.kind.value,
        "weight": edge.weight,
        "created_at": edge.created_at.isoformat(),
        "activated_at": edge.activated_at.isoformat(),
    }


@dataclass(frozen=True, slots=True)
class PortableEntity:
    """An entity with its name in plaintext (the owner's own export) and who mentions it:
    (exported memory id, salience)."""

    name: str
    kind: EntityKind
    mentions: tuple[tuple[UUID, float], ...]


def entity_to_record(entity: PortableEntity) -> dict[str, Any]:
    return {
        "format": FORMAT_VERSION,
        RECORD_KEY: ENTITY,
        "name": entity.name,
        "kind": entity.kind.value,
        "mentions": [{"memory": str(m), "salience": s} for m, s in entity.mentions],
    }


def record_to_edge(record: Mapping[str, Any], ids: Mapping[UUID, UUID]) -> Edge | None:
    """The edge between the memories the exported ids became (None: one end was not
    imported, or both became one memory by a merge); InvalidMemory when malformed."""
    try:
        source, target = ids.get(UUID(record["source"])), ids.get(UUID(record["target"]))
        weight = check_weight(record["weight"])
        kind = EdgeKind(record["kind"])
        created = datetime.fromisoformat(record["created_at"])
        activated = datetime.fromisoformat(record.get("activated_at") or record["created_at"])
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InvalidMemory(f"not a memlane edge record: {exc}") from exc
    if source is None or target is None or source == target:
        return None
    return Edge(source, target, kind, weight, created, activated)


def record_to_entity(record: Mapping[str, Any], ids: Mapping[UUID, UUID]) -> PortableEntity:
    """The entity with its mentions by the memories the exported ids became."""
    try:
        name = record["name"]
        if not isinstance(name, str) or not name.strip():
            raise ValueError("an entity needs a name")
        kind = EntityKind(record["kind"])
        raw: Sequence[Mapping[str, Any]] = record.get("mentions") or ()
        mentions = tuple(
            (ids[UUID(m["memory"])], check_weight(m["salience"]))
            for m in raw if UUID(m["memory"]) in ids
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InvalidMemory(f"not a memlane entity record: {exc}") from exc
    return PortableEntity(name.strip(), kind, mentions)


def check_graph_record(record: Mapping[str, Any]) -> None:
    """Raise InvalidMemory when an edge, entity or fact record is malformed (ids unmapped)."""
    if record_type(record) == FACT:
        check_fact_record(record)
        return
    mentions = record.get("mentions")
    named = [m.get("memory") for m in mentions if isinstance(m, Mapping)] if isinstance(
        mentions, list) else []
    ends = [record.get("source"), record.get("target"), *named]
    try:
        same = {UUID(str(i)): UUID(str(i)) for i in ends if i is not None}
    except ValueError as exc:
        raise InvalidMemory(f"not a memlane graph record: {exc}") from exc
    if record_type(record) == EDGE:
        record_to_edge(record, same)
    else:
        record_to_entity(record, same)
