"""The JSON a chat model answers with when asked for facts: its schema, and reading it safely."""

from __future__ import annotations

from typing import Any

from memlane.domain.facts.model import RELATION_TYPES, USER, ExtractedFact, InvalidFact
from memlane.domain.facts.time import time_span

# What a model's fact is worth next to a pattern's (0.85): it may paraphrase or over-read.
MODEL_CONFIDENCE = 0.7
MAX_MODEL_FACTS = 20
MAX_OBJECT_CHARS = 200

FACT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "facts": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "relation": {"type": "string", "enum": sorted(RELATION_TYPES)},
                    "object": {"type": "string"},
                    "negated": {"type": "boolean"},
                    "when": {"type": ["string", "null"]},
                },
                "required": ["relation", "object"],
            },
        },
    },
    "required": ["facts"],
}


class InvalidModelAnswer(ValueError):
    """The model's answer is not the JSON the schema asks for."""


def facts_from_answer(payload: object) -> list[ExtractedFact]:
    """The facts in a decoded model answer; InvalidModelAnswer when its shape is wrong.

    An unknown relation or an empty object makes the whole answer invalid: a model that
    ignores the schema once is not trusted for the rest of the answer either."""
    if not isinstance(payload, dict) or not isinstance(payload.get("facts"), list):
        raise InvalidModelAnswer("the answer has no list of facts")
    found: list[ExtractedFact] = []
    for item in payload["facts"][:MAX_MODEL_FACTS]:
        if not isinstance(item, dict):
            raise InvalidModelAnswer("a fact is not an object")
        relation, obj = item.get("relation"), item.get("object")
        negated, when = item.get("negated", False), item.get("when")
        if not isinstance(relation, str) or relation not in RELATION_TYPES \
                or not isinstance(obj, str):
            raise InvalidModelAnswer("a fact has an unknown relation or no object")
        if not isinstance(negated, bool) or not (when is None or isinstance(when, str)):
            raise InvalidModelAnswer("a fact's negated or when has the wrong type")
        obj = " ".join(obj.split())[:MAX_OBJECT_CHARS]
        fact_type = RELATION_TYPES[relation]
        try:
            found.append(ExtractedFact(
                subject=USER, relation=relation, object=obj, fact_type=fact_type,
                time_span=time_span(relation, fact_type, obj, when or None),
                confidence=MODEL_CONFIDENCE, negated=negated, when=when or None,
            ))
        except InvalidFact as error:
            raise InvalidModelAnswer("a fact has an empty part") from error
    return found
