"""Entities without an LLM: names found in text, their kinds, and entity nodes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlane.domain.faces import Face

if TYPE_CHECKING:
    from memlane.domain.entities.nodes import (
        COMMON_NAME_FLOOR as COMMON_NAME_FLOOR,
        LABEL_FIELD as LABEL_FIELD,
        MIN_SALIENCE as MIN_SALIENCE,
        SealedMention as SealedMention,
        StoredMention as StoredMention,
        mentions_in as mentions_in,
        name_terms as name_terms,
        query_name_keys as query_name_keys,
        tentative as tentative,
    )
    from memlane.domain.entities.recognition import (
        EntityKind as EntityKind,
        EntityMention as EntityMention,
        normalise_entity_name as normalise_entity_name,
    )

# What other slices may import from this one, and the module that defines each name.
_FACE = Face(__name__, {
    "COMMON_NAME_FLOOR": "nodes",
    "EntityKind": "recognition",
    "EntityMention": "recognition",
    "LABEL_FIELD": "nodes",
    "MIN_SALIENCE": "nodes",
    "SealedMention": "nodes",
    "StoredMention": "nodes",
    "mentions_in": "nodes",
    "name_terms": "nodes",
    "normalise_entity_name": "recognition",
    "query_name_keys": "nodes",
    "tentative": "nodes",
})


def __getattr__(name: str) -> object:
    return _FACE.attribute(name)


def __dir__() -> list[str]:
    return _FACE.names
