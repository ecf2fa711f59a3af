"""Fact extraction without an LLM: EN/DE statements about the user, what must yield nothing."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import uuid4

import pytest
from hypothesis import given, strategies as st

from memlane.domain.facts.extraction import extract_facts, relations_asked
from memlane.domain.facts.model import (
    RELATION_TYPES,
    USER,
    FactType,
    TimeSpan,
    fact_from_extracted,
    normalise,
    superseded_facts,
)
from memlane.domain.facts.sentences import sentences


def found(text: str) -> set[tuple[str, str, bool]]:
    return {(f.relation, normalise(f.object), f.negated) for f in extract_facts(text)}


@pytest.mark.parametrize(
    ("text", "relation", "obj"),
    [
        ("My name is Ana Lima.", "name", "Ana Lima"),
        ("Ich heiße Jörg.", "name", "Jörg"),
        ("I live in Porto now.", "lives_in", "Porto"),
        ("Ich wohne seit zehn Jahren in Graz.", "lives_in", "Graz"),
        ("I moved to Oslo last month.", "lives_in", "Oslo"),
        ("Ich bin nach Kiel gezogen.", "lives_in", "Kiel"),
        ("I'm from Peru.", "comes_from", "Peru"),
        ("Ich komme aus Ungarn.", "comes_from", "Ungarn"),
        ("I work at Nokia.", "works_at", "Nokia"),
        ("Ich arbeite bei der Stadtverwaltung.", "works_at", "Stadtverwaltung"),
        ("I'm a dentist.", "works_as", "dentist"),
        ("Ich bin Tierärztin.", "works_as", "Tierärztin"),
        ("My birthday is on April 9th.", "birthday", "April 9th"),
        ("Wann? Ich habe am 9. April Geburtstag.", "birthday", "9. April"),
        ("My husband is called Omar.", "partner", "Omar"),
        ("Mein Bruder heißt Lars.", "brother", "Lars"),
        ("I have a cat named Tofu.", "pet", "Tofu"),
        ("I love sailing.", "likes", "sailing"),
        ("Ich mag keine Pilze.", "dislikes", "Pilze"),
        ("I prefer trains over planes.", "prefers", "trains"),
        ("Ich trinke lieber Wasser als Saft.", "prefers", "Wasser"),
        ("I'll renew the insurance tomorrow.", "commits_to", "renew the insurance tomorrow"),
        ("Ich werde nächste Woche die Miete überweisen.", "commits_to",
         "nächste Woche die Miete überweisen"),
        ("I'm allergic to sesame.", "allergic_to", "sesame"),
        ("Ich bin allergisch gegen Birkenpollen.", "allergic_to", "Birkenpollen"),
        ("Never schedule calls on Fridays.", "rule", "never schedule calls on Fridays"),
        ("Ich esse kein Rindfleisch.", "avoids", "Rindfleisch"),
        ("I'm a very patient person.", "trait", "patient"),
        ("Ich bin ziemlich ungeduldig.", "trait", "ungeduldig"),
        ("I got married in 2016.", "event", "got married"),
        ("Letztes Jahr habe ich meinen Abschluss gemacht.", "event", "meinen Abschluss gemacht"),
    ],
)
def test_a_statement_about_the_user_yields_its_fact(text: str, relation: str, obj: str) -> None:
    assert (relation, normalise(obj), False) in found(text)


@pytest.mark.parametrize(
    "text",
    [
        "Do I like coffee?", "Where do I live", "Wohne ich noch in Bremen?", "Mag ich Tee",
        "If I lived in Rome I would walk everywhere.", "I might move to Madrid.",
        "Vielleicht ziehe ich nach Wien.", "Wenn ich reich wäre, würde ich ein Boot kaufen.",
        "My colleague lives in Paris.", "Meine Mutter arbeitet bei Siemens.",
        "Tom is allergic to nuts.",
        "Tom said I'm stubborn.", "Mein Chef meint, ich sei stur.",
        "I don't live in Berlin.", "I'm not a teacher.", "Ich habe keine Haustiere.",
        "I'm tired today.", "Ich bin heute müde.", "I like it.", "I love that idea!",
        "I can't find my keys.", "Ich kann meinen Schlüssel nicht finden.",
        "I'm going to the store.", "I will never understand cricket.", "Ich werde müde.",
        "We postponed the wedding to September 2025.",
    ],
)
def test_questions_wishes_third_parties_and_chit_chat_yield_nothing(text: str) -> None:
    assert extract_facts(text) == []


@pytest.mark.parametrize(
    ("text", "relation", "obj"),
    [
        ("I no longer work at Siemens.", "works_at", "Siemens"),
        ("Ich arbeite nicht mehr bei Siemens.", "works_at", "Siemens"),
        ("I don't live in Leeds anymore.", "lives_in", "Leeds"),
        ("Ich mag keinen Kaffee mehr.", "likes", "Kaffee"),
    ],
)
def test_a_statement_that_something_stopped_yields_only_the_negated_fact(
    text: str, relation: str, obj: str,
) -> None:
    assert found(text) == {(relation, normalise(obj), True)}


def test_objects_lose_trailing_filler_and_punctuation() -> None:
    assert found("I work at Bosch now!") == {("works_at", "bosch", False)}
    assert ("lives_in", "toronto", False) in found("I've been living in Toronto for six years.")


def test_a_listed_object_becomes_one_fact_each() -> None:
    assert found("I'm allergic to peanuts, shellfish and latex.") == {
        ("allergic_to", "peanuts", False), ("allergic_to", "shellfish", False),
        ("allergic_to", "latex", False)}


def test_an_event_keeps_when_it_happened_and_how_long_ago() -> None:
    [event] = [f for f in extract_facts("Two weeks ago I ran my first 10k.")
               if f.relation == "event"]
    assert (event.object, event.when, event.fact_type) == (
        "ran my first 10k", "Two weeks ago", FactType.EVENT)
    assert event.time_span is TimeSpan.MEDIUM_TERM
    [year] = extract_facts("I graduated in 2009.")
    assert (year.when, year.time_span) == ("2009", TimeSpan.LONG_TERM)


def test_a_commitment_for_tomorrow_is_short_term_and_a_later_one_is_future() -> None:
    [soon] = extract_facts("I'll call the plumber tomorrow.")
    [later] = extract_facts("I plan to learn Greek next year.")
    assert (soon.time_span, later.time_span) == (TimeSpan.SHORT_TERM, TimeSpan.FUTURE)


def test_a_coordinated_predicate_keeps_the_users_subject() -> None:
    assert found("I moved to Toulouse and now work at Thales.") == {
        ("lives_in", "toulouse", False), ("works_at", "thales", False)}


def test_a_german_ordinal_date_does_not_split_the_sentence() -> None:
    assert sentences("Ich habe am 12. März Geburtstag. Und du?") == [
        "Ich habe am 12. März Geburtstag.", "Und du?"]


def test_a_new_home_stated_later_supersedes_the_one_stored() -> None:
    [home] = extract_facts("I live in Berlin.")
    stored = fact_from_extracted(home, fact_id=uuid4(), now=datetime(2025, 1, 1, tzinfo=UTC))
    [moved] = [f for f in extract_facts("I moved to Lisbon last year.") if f.relation == "lives_in"]
    assert superseded_facts([stored], moved) == [stored]


STATEMENTS = ["I live in Lisbon", "I'm allergic to peanuts", "Ich arbeite bei Siemens",
              "I love hiking", "Ich bin ungeduldig", "I'll call my mother tomorrow"]


@given(st.sampled_from(STATEMENTS))
def test_asking_a_statement_as_a_question_yields_nothing(statement: str) -> None:
    assert extract_facts(statement + ".")
    assert extract_facts(statement + "?") == []


@given(st.text(max_size=120))
def test_any_text_yields_only_well_formed_facts_about_the_user(text: str) -> None:
    for fact in extract_facts(text):
        assert fact.subject == USER
        assert fact.fact_type is RELATION_TYPES[fact.relation]
        assert 0.0 <= fact.confidence <= 1.0
        assert fact.object.strip()


@pytest.mark.parametrize(
    ("question", "relations"),
    [
        ("What do I do for a living?", {"works_as", "works_at"}),
        ("Wo arbeite ich eigentlich?", {"works_as", "works_at"}),
        ("Where do I live?", {"lives_in"}),
        ("Wo wohne ich?", {"lives_in"}),
        ("When is my birthday?", {"birthday"}),
        ("Wann habe ich Geburtstag?", {"birthday"}),
        ("What's my name?", {"name"}),
        ("Am I allergic to anything?", {"allergic_to", "intolerant_to"}),
        ("Who is my wife?", {"partner"}),
        ("Was mag ich nicht?", {"dislikes"}),
        ("When did I get married?", {"event"}),
        ("What's the capital of Peru?", set()),
        ("How does a heat pump work?", set()),
    ],
)
def test_a_question_names_the_relations_that_answer_it(
    question: str, relations: set[str],
) -> None:
    assert relations_asked(question) == relations
