"""Fact values: validation, normalisation, and which current facts a new one supersedes."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from uuid import uuid4

import pytest
from hypothesis import given, strategies as st

from memlane.domain.errors import InvalidMemory
from memlane.domain.facts.model import (
    FUNCTIONAL_RELATIONS,
    RELATION_TYPES,
    USER,
    ExtractedFact,
    Fact,
    FactType,
    InvalidFact,
    TimeSpan,
    fact_from_extracted,
    normalise,
    supersede,
    superseded_facts,
    validate_user_fact_score,
    with_user_score,
)

NOW = datetime(2025, 3, 1, 12, tzinfo=UTC)


def said(relation: str, obj: str, *, negated: bool = False, subject: str = USER) -> ExtractedFact:
    return ExtractedFact(subject=subject, relation=relation, object=obj,
                         fact_type=RELATION_TYPES[relation], time_span=TimeSpan.CURRENT,
                         confidence=0.9, negated=negated)


def stored(relation: str, obj: str, *, subject: str = USER) -> Fact:
    return fact_from_extracted(said(relation, obj, subject=subject), fact_id=uuid4(),
                               now=NOW - timedelta(days=30))


def test_a_new_home_supersedes_the_old_one() -> None:
    berlin, siemens = stored("lives_in", "Berlin"), stored("works_at", "Siemens")
    assert superseded_facts([berlin, siemens], said("lives_in", "Lisbon")) == [berlin]


@pytest.mark.parametrize("restated", ["Berlin", "berlin.", "  BERLIN ", "the Berlin"])
def test_restating_the_same_value_supersedes_nothing(restated: str) -> None:
    assert superseded_facts([stored("lives_in", "Berlin")], said("lives_in", restated)) == []


def test_a_non_functional_relation_accumulates() -> None:
    assert "likes" not in FUNCTIONAL_RELATIONS
    assert superseded_facts([stored("likes", "coffee")], said("likes", "tea")) == []
    assert superseded_facts([stored("pet", "Rex")], said("pet", "Mimi")) == []


def test_a_negated_fact_ends_only_the_same_relation_and_object() -> None:
    google, berlin = stored("works_at", "Google"), stored("lives_in", "Berlin")
    new = said("works_at", "google", negated=True)
    assert superseded_facts([google, berlin], new) == [google]
    assert superseded_facts([google], said("works_at", "Bosch", negated=True)) == []


def test_an_opposite_preference_about_the_same_thing_contradicts_it() -> None:
    likes, hates = stored("likes", "coffee"), stored("dislikes", "mornings")
    assert superseded_facts([likes], said("dislikes", "Coffee")) == [likes]
    assert superseded_facts([likes], said("avoids", "coffee")) == [likes]
    assert superseded_facts([hates], said("likes", "mornings")) == [hates]
    assert superseded_facts([likes], said("dislikes", "tea")) == []


def test_facts_about_someone_else_are_left_alone() -> None:
    sisters_home = stored("lives_in", "Paris", subject="sister")
    assert superseded_facts([sisters_home], said("lives_in", "Rome")) == []
    assert superseded_facts([sisters_home], said("lives_in", "Rome", subject=" Sister ")) == [
        sisters_home]


def test_a_fact_already_superseded_or_ended_is_not_superseded_again() -> None:
    old = supersede(stored("lives_in", "Berlin"), now=NOW, by=uuid4())
    ended = supersede(stored("lives_in", "Munich"), now=NOW)
    assert superseded_facts([old, ended], said("lives_in", "Lisbon"), now=NOW) == []


def test_a_fact_that_ends_later_is_still_current_now() -> None:
    lease = replace(stored("lives_in", "Berlin"), valid_until=NOW + timedelta(days=1))
    assert lease.is_current(NOW)
    assert not lease.is_current(None)
    assert superseded_facts([lease], said("lives_in", "Lisbon"), now=NOW) == [lease]


def test_supersede_ends_a_fact_at_now_and_names_its_successor() -> None:
    successor = uuid4()
    ended = supersede(stored("age", "34"), now=NOW, by=successor)
    assert (ended.valid_until, ended.superseded_by, ended.updated_at) == (NOW, successor, NOW)
    assert not ended.is_current(NOW)


def test_a_negated_fact_is_not_stored_itself() -> None:
    with pytest.raises(InvalidFact):
        fact_from_extracted(said("works_at", "Google", negated=True), fact_id=uuid4(), now=NOW)


def test_a_fact_cannot_end_before_it_starts() -> None:
    with pytest.raises(InvalidFact):
        replace(stored("age", "34"), valid_until=NOW - timedelta(days=90))


def test_empty_parts_are_rejected_as_invalid_memory() -> None:
    with pytest.raises(InvalidMemory):
        said("likes", "   ")


@given(st.floats(allow_nan=False).filter(lambda c: not 0.0 <= c <= 1.0))
def test_confidence_outside_the_unit_interval_is_rejected(confidence: float) -> None:
    with pytest.raises(InvalidFact):
        ExtractedFact(subject=USER, relation="likes", object="tea",
                      fact_type=FactType.PREFERENCE, time_span=TimeSpan.CURRENT,
                      confidence=confidence)


@given(st.floats(min_value=0.0, max_value=10.0))
def test_a_user_score_from_zero_to_ten_is_kept(score: float) -> None:
    assert with_user_score(stored("likes", "tea"), score, now=NOW).user_fact_score == score


@given(st.floats(allow_nan=False).filter(lambda s: not 0.0 <= s <= 10.0))
def test_a_user_score_outside_zero_to_ten_is_rejected(score: float) -> None:
    with pytest.raises(InvalidFact):
        validate_user_fact_score(score)


def test_every_functional_relation_has_a_fact_type() -> None:
    assert set(FUNCTIONAL_RELATIONS).issubset(RELATION_TYPES)
    assert set(RELATION_TYPES.values()) == set(FactType)


@given(st.text(max_size=40))
def test_normalising_twice_changes_nothing(value: str) -> None:
    assert normalise(normalise(value)) == normalise(value)


def test_normalise_ignores_case_articles_quotes_and_trailing_dots() -> None:
    assert normalise("The  City Library.") == normalise("city library") == "city library"
    assert normalise("der Post") == normalise("Post")
    assert normalise("12. März") == "12. märz"


relations = st.sampled_from(sorted(RELATION_TYPES))
objects = st.sampled_from(["Berlin", "berlin", "Lisbon", "tea", "Tea.", "the bank", "Bank"])


@given(st.lists(st.tuples(relations, objects), max_size=6), relations, objects, st.booleans())
def test_superseded_facts_are_current_facts_of_the_same_subject(
    history: list[tuple[str, str]], relation: str, obj: str, negated: bool,
) -> None:
    existing = [stored(r, o) for r, o in history]
    new = said(relation, obj, negated=negated)
    ended = superseded_facts(existing, new)
    assert all(fact in existing for fact in ended)
    if not negated:  # restating a value never supersedes it
        assert all(normalise(f.object) != normalise(obj) or f.relation != relation
                   for f in ended)


@pytest.mark.parametrize("blank", ["", "   ", "\u200b", "\u200b\u200d\ufeff", "\u2800 \u3164"])
def test_a_fact_whose_subject_or_object_shows_nothing_is_refused(blank: str) -> None:
    with pytest.raises(InvalidFact, match="empty or invisible"):
        said("likes", blank)
    with pytest.raises(InvalidFact, match="empty or invisible"):
        ExtractedFact(subject=blank, relation="likes", object="tea",
                      fact_type=FactType.PREFERENCE, time_span=TimeSpan.CURRENT,
                      confidence=0.9)
