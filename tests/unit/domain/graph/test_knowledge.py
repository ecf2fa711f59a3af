"""The knowledge graph's texts and tags: what is stored reads back as what was given."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from memlane.domain.errors import InvalidMemory
from memlane.domain.graph import knowledge as kg

words = st.text(st.characters(categories=("L", "N", "P", "Zs"), exclude_characters="()"),
                min_size=1, max_size=40).map(lambda s: " ".join(s.split())).filter(bool)


@given(name=words, entity_type=words)
def test_an_entity_text_reads_back_as_its_name_and_type(name: str, entity_type: str) -> None:
    assert kg.parse_entity(kg.entity_text(name, entity_type)) == (name, entity_type)


@given(entity=words, text=words)
def test_an_observation_text_reads_back_without_its_entity(entity: str, text: str) -> None:
    assert kg.parse_observation(entity, kg.observation_text(entity, text)) == text


@given(source=words, relation_type=words, target=words)
def test_a_relation_text_reads_back_as_its_type(
    source: str, relation_type: str, target: str
) -> None:
    text = kg.relation_text(source, relation_type, target)
    assert kg.parse_relation(source, target, text) == relation_type


def test_an_edited_entity_text_is_all_name() -> None:
    assert kg.parse_entity("Ana moved away") == ("Ana moved away", "")


@given(parts=st.lists(st.text("abcXYZ", min_size=1, max_size=8), min_size=1, max_size=4))
def test_a_name_key_ignores_case_and_spacing(parts: list[str]) -> None:
    spaced, plain = "  " + "   ".join(parts).upper() + " ", " ".join(parts).lower()
    assert kg.name_key(spaced) == kg.name_key(plain)


@given(blinded=st.text(max_size=500))
def test_a_name_token_fits_a_tag_whatever_the_blinding(blinded: str) -> None:
    token = kg.name_token(blinded)
    assert len(kg.FROM + token) <= 64 and token == kg.name_token(blinded)


def test_a_type_with_parentheses_or_a_blank_name_is_refused() -> None:
    with pytest.raises(InvalidMemory, match="parentheses"):
        kg.check_type("person (adult)", "an entity type")
    with pytest.raises(InvalidMemory, match="non-empty"):
        kg.check_name("   ")
    with pytest.raises(InvalidMemory, match="longer"):
        kg.check_name("x" * (kg.MAX_NAME_CHARS + 1))


def test_only_knowledge_graph_roles_count_as_roles() -> None:
    assert kg.role_of({kg.KG_KEY: kg.ENTITY}) == kg.ENTITY
    assert kg.role_of({kg.KG_KEY: "anything"}) is None
    assert kg.role_of({}) is None
