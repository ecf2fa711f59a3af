"""Reading the model probe's answer: the schema's shape, kinds and ranges, or nothing."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from hypothesis import given, strategies as st

from memlane.domain.entities import EntityKind
from memlane.domain.facts.probe import (
    MAX_EDGES,
    MAX_NODES,
    PROBE_EDGE_KINDS,
    PROBE_SCHEMA,
    EdgeChange,
    GraphPatch,
    PatchEdge,
    PatchNode,
    grounded,
    patch_from_answer,
    probe_message,
)
from memlane.domain.facts.schema import InvalidModelAnswer
from memlane.domain.graph import EdgeKind

NODE = {"name": "Anna", "kind": "person"}
EDGE = {"to": "Anna", "kind": "causal", "change": "strengthen", "strength": 0.4}
FACT = {"relation": "lives_in", "object": "Lisbon"}


def answer(**lists: Any) -> dict[str, Any]:
    return {"nodes": [], "edges": [], "facts": [], **lists}


def test_a_well_formed_answer_becomes_a_patch() -> None:
    patch = patch_from_answer(answer(nodes=[NODE], edges=[EDGE], facts=[FACT]))
    assert patch.nodes == (PatchNode("Anna", EntityKind.PERSON),)
    assert patch.edges == (PatchEdge("Anna", EdgeKind.CAUSAL, EdgeChange.STRENGTHEN, 0.4),)
    assert [(f.relation, f.object) for f in patch.facts] == [("lives_in", "Lisbon")]
    assert patch_from_answer(answer()).empty


@pytest.mark.parametrize("bad", [
    [],
    "nodes",
    {},  # the schema asks for every list, empty or not
    {"nodes": [], "edges": []},
    answer(mood="happy"),  # an unknown field
    answer(nodes=[{**NODE, "why": "x"}]),
    answer(edges=[{**EDGE, "weight": 1}]),
    answer(facts=[{**FACT, "source": "x"}]),
    answer(nodes=[{**NODE, "kind": "city"}]),  # a kind the graph has not
    answer(edges=[{**EDGE, "kind": "supersedes"}]),  # a kind the model may not touch
    answer(edges=[{**EDGE, "kind": "chain"}]),
    answer(edges=[{**EDGE, "change": "delete"}]),
    answer(edges=[{**EDGE, "strength": 1.01}]),
    answer(edges=[{**EDGE, "strength": -0.1}]),
    answer(edges=[{**EDGE, "strength": True}]),
    answer(edges=[{**EDGE, "strength": "0.5"}]),
    answer(edges=[{**EDGE, "strength": float("nan")}]),
    answer(nodes=[{**NODE, "name": "   "}]),
    answer(nodes=[{**NODE, "name": "x" * 81}]),
    answer(nodes=[NODE] * (MAX_NODES + 1)),  # an oversized list
    answer(edges=[EDGE] * (MAX_EDGES + 1)),
    answer(facts=[FACT] * 13),
    answer(facts=[{"relation": "hobby", "object": "chess"}]),
    answer(edges={"to": "Anna"}),
])
def test_an_answer_off_the_schema_is_refused_whole(bad: object) -> None:
    with pytest.raises(InvalidModelAnswer):
        patch_from_answer(bad)


JSON = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=True) | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=20,
)
FIELD = {"nodes": ("name", "kind"), "edges": ("to", "kind", "change", "strength")}


@st.composite
def near_misses(draw: st.DrawFn) -> dict[str, Any]:
    """Answers of the schema's shape with any value in any field."""
    lists: dict[str, Any] = {}
    for field, keys in FIELD.items():
        items = draw(st.lists(st.fixed_dictionaries(
            {k: JSON | st.sampled_from(["person", "causal", "add", "Anna", 0.5]) for k in keys}
        ), max_size=3))
        lists[field] = items
    return answer(**lists)


@given(JSON | near_misses())
def test_any_json_is_a_patch_the_schema_allows_or_refused(payload: object) -> None:
    try:
        patch = patch_from_answer(payload)
    except InvalidModelAnswer:
        return
    # What is accepted is what Ollama's `format` allows (facts aside: their own reader).
    jsonschema.validate({**payload, "facts": []}, PROBE_SCHEMA)  # type: ignore[dict-item]
    assert all(0 <= e.strength <= 1 and e.kind in PROBE_EDGE_KINDS for e in patch.edges)
    assert len(patch.nodes) <= MAX_NODES and len(patch.edges) <= MAX_EDGES


@given(st.lists(st.sampled_from(["Anna", "Bruno", "Zoe", "anna"]), max_size=6),
       st.lists(st.sampled_from(["Anna", "Carla"]), max_size=2))
def test_grounding_keeps_only_names_the_segment_or_the_graph_holds(
    names: list[str], known: list[str]
) -> None:
    text = "Anna and Bruno came over."
    patch = GraphPatch(
        tuple(PatchNode(n, EntityKind.PERSON) for n in names),
        tuple(PatchEdge(n, EdgeKind.SEMANTIC, EdgeChange.ADD, 0.5) for n in names),
    )
    kept = grounded(patch, text, known)
    assert {n.name for n in kept.nodes} == {n for n in names if n.casefold() in text.casefold()}
    reachable = {k.casefold() for k in known} | {n.name.casefold() for n in kept.nodes}
    assert {e.to for e in kept.edges} == {n for n in names if n.casefold() in reachable}


def test_the_schema_is_valid_json_schema_and_the_message_names_known_names() -> None:
    jsonschema.Draft202012Validator.check_schema(PROBE_SCHEMA)
    json.dumps(PROBE_SCHEMA)
    assert probe_message("We met.", ["Anna", "Porto"]).startswith("Known names: Anna, Porto")
    assert "(none)" in probe_message("We met.", [])
