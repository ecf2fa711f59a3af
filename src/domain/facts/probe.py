"""The optional model probe's answer: a graph patch and facts, its JSON schema, read strictly."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from memlane.domain.entities import EntityKind
from memlane.domain.facts.model import ExtractedFact
from memlane.domain.facts.schema import FACT_SCHEMA, InvalidModelAnswer, facts_from_answer
from memlane.domain.graph import EdgeKind

# A segment is a few sentences: an answer longer than this is a model rambling, refused.
MAX_NODES = 8
MAX_EDGES = 8
MAX_FACTS = 12
MAX_NAME_CHARS = 80
# The known names the model is shown, at most (the segment's own, then others).
MAX_KNOWN_NAMES = 40
# What a model may change: links that add reach. Never the kinds that hide a memory as
# replaced (supersedes, contradiction: the heuristic judge's alone) nor a conversation's
# order (chain).
PROBE_EDGE_KINDS = (
    EdgeKind.SEMANTIC, EdgeKind.TEMPORAL, EdgeKind.CAUSAL, EdgeKind.ENTITY, EdgeKind.NARRATIVE,
)
_NODE_FIELDS = frozenset({"name", "kind"})
_EDGE_FIELDS = frozenset({"to", "kind", "change", "strength"})
_FACT_FIELDS = frozenset(FACT_SCHEMA["properties"]["facts"]["items"]["properties"])
_TOP_FIELDS = frozenset({"nodes", "edges", "facts"})


class EdgeChange(StrEnum):
    """What the model asks of an edge from the segment to what a name was said in."""

    ADD = "add"  # a new edge at `strength` (an existing one keeps the stronger weight)
    STRENGTHEN = "strengthen"  # an existing edge raised to at least `strength`
    WEAKEN = "weaken"  # an existing edge lowered to at most `strength` (0: removed)


@dataclass(frozen=True, slots=True)
class PatchNode:
    """An entity the segment names that the heuristics may have missed."""

    name: str
    kind: EntityKind


@dataclass(frozen=True, slots=True)
class PatchEdge:
    """An edge of `kind` from the segment's memory to the memories that mention `to`."""

    to: str
    kind: EdgeKind
    change: EdgeChange
    strength: float


@dataclass(frozen=True, slots=True)
class GraphPatch:
    """What a model reads in one segment; empty: nothing beyond the heuristics."""

    nodes: tuple[PatchNode, ...] = ()
    edges: tuple[PatchEdge, ...] = ()
    facts: tuple[ExtractedFact, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.nodes or self.edges or self.facts)


def _strict(properties: dict[str, Any], required: Sequence[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(required),
            "additionalProperties": False}


PROBE_SCHEMA: dict[str, Any] = _strict({
    "nodes": {"type": "array", "maxItems": MAX_NODES, "items": _strict({
        "name": {"type": "string", "maxLength": MAX_NAME_CHARS},
        "kind": {"type": "string", "enum": [k.value for k in EntityKind]},
    }, ["name", "kind"])},
    "edges": {"type": "array", "maxItems": MAX_EDGES, "items": _strict({
        "to": {"type": "string", "maxLength": MAX_NAME_CHARS},
        "kind": {"type": "string", "enum": [k.value for k in PROBE_EDGE_KINDS]},
        "change": {"type": "string", "enum": [c.value for c in EdgeChange]},
        "strength": {"type": "number", "minimum": 0, "maximum": 1},
    }, ["to", "kind", "change", "strength"])},
    "facts": {"type": "array", "maxItems": MAX_FACTS, "items": {
        **FACT_SCHEMA["properties"]["facts"]["items"], "additionalProperties": False}},
}, ["nodes", "edges", "facts"])

PROBE_INSTRUCTIONS = (
    "You read one segment of a conversation for a personal memory graph. Answer as JSON with "
    "three lists. nodes: people, places, organisations, products or pets the segment names "
    "(kind: " + ", ".join(k.value for k in EntityKind) + "), each name exactly as written. "
    "edges: how the segment relates to earlier talk about a known name or a node: to (the "
    "name), kind (" + ", ".join(k.value for k in PROBE_EDGE_KINDS) + "), change (add, "
    "strengthen or weaken) and strength from 0 to 1. facts: what the user states about "
    "themselves, as {relation, object, negated, when}. Empty lists when there is nothing."
)


def probe_message(text: str, known: Sequence[str]) -> str:
    """The user message: the names the graph already holds, then the segment."""
    names = ", ".join(known[:MAX_KNOWN_NAMES]) or "(none)"
    return f"Known names: {names}\n\nSegment:\n{text}"


def patch_from_answer(payload: object) -> GraphPatch:
    """The patch in a decoded answer; InvalidModelAnswer for any field, kind, value or
    length the schema does not allow (a model that breaks it once is not trusted)."""
    top = _object(payload, _TOP_FIELDS, "the answer")
    nodes = [_node(n) for n in _list(top, "nodes", MAX_NODES)]
    edges = [_edge(e) for e in _list(top, "edges", MAX_EDGES)]
    raw_facts = _list(top, "facts", MAX_FACTS)
    for item in raw_facts:
        _object(item, _FACT_FIELDS, "a fact")
    facts = facts_from_answer({"facts": raw_facts})
    return GraphPatch(tuple(nodes), tuple(edges), tuple(facts))


def grounded(patch: GraphPatch, text: str, known: Iterable[str]) -> GraphPatch:
    """The patch without what the segment does not support: a node whose name it does not
    contain, an edge to a name neither known nor a node of the patch."""
    said = text.casefold()
    nodes = tuple(n for n in patch.nodes if n.name.casefold() in said)
    names = {n.casefold() for n in known} | {n.name.casefold() for n in nodes}
    edges = tuple(e for e in patch.edges if e.to.casefold() in names)
    return GraphPatch(nodes, edges, patch.facts)


def _object(value: object, allowed: frozenset[str], what: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise InvalidModelAnswer(f"{what} is not an object")
    unknown = set(value) - allowed
    if unknown:
        raise InvalidModelAnswer(f"{what} has unknown fields")
    return value


def _list(top: Mapping[str, Any], field: str, most: int) -> list[Any]:
    value = top.get(field)
    if not isinstance(value, list):
        raise InvalidModelAnswer(f"{field} is missing or not a list")
    if len(value) > most:
        raise InvalidModelAnswer(f"{field} has more than {most} items")
    return value


def _name(value: object) -> str:
    if not isinstance(value, str):
        raise InvalidModelAnswer("a name is not a string")
    name = " ".join(value.split())
    if not name or len(name) > MAX_NAME_CHARS:
        raise InvalidModelAnswer("a name is empty or too long")
    return name


def _node(value: object) -> PatchNode:
    item = _object(value, _NODE_FIELDS, "a node")
    try:
        return PatchNode(_name(item.get("name")), EntityKind(item.get("kind", "")))
    except ValueError as error:
        raise InvalidModelAnswer("a node has an unknown kind") from error


def _edge(value: object) -> PatchEdge:
    item = _object(value, _EDGE_FIELDS, "an edge")
    strength = item.get("strength")
    if isinstance(strength, bool) or not isinstance(strength, int | float) \
            or not math.isfinite(strength) or not 0 <= strength <= 1:
        raise InvalidModelAnswer("an edge's strength is not within [0, 1]")
    try:
        kind, change = EdgeKind(item.get("kind", "")), EdgeChange(item.get("change", ""))
    except ValueError as error:
        raise InvalidModelAnswer("an edge has an unknown kind or change") from error
    if kind not in PROBE_EDGE_KINDS:
        raise InvalidModelAnswer("an edge's kind is not one a model may change")
    return PatchEdge(_name(item.get("to")), kind, change, float(strength))
