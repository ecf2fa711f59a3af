"""Reading a chat model's fact answer: the schema's shape or nothing."""

from __future__ import annotations

import pytest

from memlane.domain.facts.model import RELATION_TYPES, FactType, TimeSpan
from memlane.domain.facts.schema import (
    FACT_SCHEMA,
    MODEL_CONFIDENCE,
    InvalidModelAnswer,
    facts_from_answer,
)


def test_a_well_formed_answer_becomes_facts_typed_by_their_relation() -> None:
    facts = facts_from_answer({"facts": [
        {"relation": "works_as", "object": "  nurse "},
        {"relation": "lives_in", "object": "Berlin", "negated": True},
        {"relation": "event", "object": "ran a marathon", "when": "last year"},
    ]})
    assert [(f.relation, f.object, f.negated) for f in facts] == [
        ("works_as", "nurse", False), ("lives_in", "Berlin", True),
        ("event", "ran a marathon", False),
    ]
    assert facts[0].fact_type is FactType.IDENTITY and facts[0].confidence == MODEL_CONFIDENCE
    assert facts[2].time_span is TimeSpan.LONG_TERM and facts[2].when == "last year"
    assert facts_from_answer({"facts": []}) == []


@pytest.mark.parametrize("payload", [
    [], {"facts": "none"}, {"other": []}, {"facts": ["works_as nurse"]},
    {"facts": [{"relation": "hobby", "object": "chess"}]},
    {"facts": [{"relation": "likes"}]},
    {"facts": [{"relation": "likes", "object": "  "}]},
    {"facts": [{"relation": "likes", "object": "tea", "negated": "no"}]},
    {"facts": [{"relation": "likes", "object": "tea", "when": 5}]},
])
def test_an_answer_off_the_schema_is_invalid(payload: object) -> None:
    with pytest.raises(InvalidModelAnswer):
        facts_from_answer(payload)


def test_the_schema_names_every_known_relation() -> None:
    relation = FACT_SCHEMA["properties"]["facts"]["items"]["properties"]["relation"]
    assert set(relation["enum"]) == set(RELATION_TYPES)
