"""Entities without an LLM: names found in EN/DE memories, their kinds, keys and questions."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from memlane.domain.entities.recognition import (
    EntityKind,
    EntityMention,
    candidate_name_keys,
    mentions_of_known,
    normalise_entity_name,
    recognise_entities,
)

PERSON, PLACE, ORG = EntityKind.PERSON, EntityKind.PLACE, EntityKind.ORGANISATION
PRODUCT, PET = EntityKind.PRODUCT, EntityKind.PET


def found(text: str) -> set[tuple[str, EntityKind]]:
    return {(m.name, m.kind) for m in recognise_entities(text)}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My sister Priya moved to Toronto last year.", {("Priya", PERSON), ("Toronto", PLACE)}),
        ("Ravi works at Siemens.", {("Ravi", PERSON), ("Siemens", ORG)}),
        ("I bought a Kindle Paperwhite.", {("Kindle Paperwhite", PRODUCT)}),
        ("Ich gehe mit meinem Hund Bello im Tiergarten spazieren.",
         {("Bello", PET), ("Tiergarten", PLACE)}),
        ("Meine Freundin Sophie kommt aus Österreich.",
         {("Sophie", PERSON), ("Österreich", PLACE)}),
        ("Ich habe ein Praktikum bei Bosch in Stuttgart gemacht.",
         {("Bosch", ORG), ("Stuttgart", PLACE)}),
    ],
)
def test_the_examples_of_the_issue_are_recognised_with_their_kinds(
    text: str, expected: set[tuple[str, EntityKind]]
) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("My cat Luna sleeps on my keyboard.", "Luna"),
        ("Our cat, Miso, needs a vet appointment.", "Miso"),
        ("We adopted a kitten and named her Pepper.", "Pepper"),
        ("Wir haben einen Welpen namens Krümel.", "Krümel"),
        ("Unsere Katze heißt Frau Müller.", "Frau Müller"),
        ("Unser Hamster Pünktchen ist krank.", "Pünktchen"),
    ],
)
def test_a_name_given_to_an_animal_is_a_pet_even_when_it_looks_like_a_noun_or_a_title(
    text: str, name: str
) -> None:
    assert found(text) == {(name, PET)}


@pytest.mark.parametrize(
    "text",
    [
        "Der Kaffee in der Kantine ist furchtbar.",
        "Am Montag habe ich einen Termin beim Zahnarzt.",
        "Ich habe Kopfschmerzen seit Dienstag.",
        "Die Kinder haben Ferien bis Anfang September.",
        "Weihnachten feiern wir bei meinen Schwiegereltern.",
        "I hate waking up early in January.",
        "Mom is visiting next week.",
        "Mark my words, this will fail.",
        "I Need A Break From Work.",
        "I'm learning Rust and Go.",
        "I'm training for the Berlin Marathon.",
    ],
)
def test_capitalised_words_that_name_nothing_give_no_entity(text: str) -> None:
    assert recognise_entities(text) == []


def test_lowercase_chat_still_finds_a_name_after_a_cue() -> None:
    assert found("met ravi at the cafe") == {("ravi", PERSON)}
    assert found("i told my brother sam about the new job at spotify") == {
        ("sam", PERSON), ("Spotify", ORG)
    }


def test_a_brand_is_what_the_sentence_does_with_it() -> None:
    assert found("I use Spotify every day.") == {("Spotify", PRODUCT)}
    assert found("She got a job at Spotify.") == {("Spotify", ORG)}
    assert found("The Bosch dishwasher is leaking again.") == {("Bosch", PRODUCT)}


def test_a_product_keeps_its_model_and_other_names_drop_a_number() -> None:
    assert found("I upgraded to the iPhone 15 Pro.") == {("iPhone 15 Pro", PRODUCT)}
    assert found("Ich habe mir eine PlayStation 5 bestellt.") == {("PlayStation 5", PRODUCT)}


def test_multi_word_names_win_over_the_place_inside_them() -> None:
    assert found("I studied at the University of Toronto.") == {("University of Toronto", ORG)}
    assert found("Die Uni Mannheim hat mich angenommen.") == {("Uni Mannheim", ORG)}


def test_an_inflected_german_name_is_given_its_canonical_form() -> None:
    (mention,) = recognise_entities("Ich arbeite seit drei Jahren bei der Deutschen Bahn.")
    assert (mention.name, mention.kind) == ("Deutsche Bahn", ORG)


def test_a_possessive_or_german_genitive_is_not_part_of_the_name() -> None:
    assert found("Sarah\u2019s birthday is on June 3rd.") == {("Sarah", PERSON)}
    assert found("Annas Geburtstag ist im Mai.") == {("Anna", PERSON)}
    assert found("Jonas Auto ist kaputt.") == {("Jonas", PERSON)}


def test_offsets_point_at_the_name_in_the_text_as_given() -> None:
    text = "Yesterday Priya\u2019s dog Rex ran off in Berlin."
    for mention in recognise_entities(text):
        assert text[mention.start : mention.end] == mention.name


def test_an_entity_named_twice_is_one_mention_at_its_first_place_and_more_salient() -> None:
    once = recognise_entities("Ravi called.")
    twice = recognise_entities("Ravi called. Later Ravi texted me again.")
    assert [m.name for m in twice] == ["Ravi"]
    assert twice[0].start == 0
    assert twice[0].salience > once[0].salience


def test_the_first_named_entity_is_the_most_salient_of_equally_certain_ones() -> None:
    priya, ravi = recognise_entities("My sister Priya and my brother Ravi visited.")
    assert (priya.name, ravi.name) == ("Priya", "Ravi")
    assert ravi.salience < priya.salience


@pytest.mark.parametrize(
    "question", ["What do you know about Ravi?", "was weißt du über ravi", "who is ravi"]
)
def test_a_question_about_someone_finds_them_without_knowing_them(question: str) -> None:
    assert [normalise_entity_name(m.name) for m in recognise_entities(question)] == ["ravi"]


def test_known_names_are_found_in_any_case_and_keep_their_kind() -> None:
    known = [("Biscuit", PET), ("New York", PLACE), ("Ravi", PERSON)]
    mentions = mentions_of_known("trip to new york with BISCUIT", known)
    assert [(m.name, m.kind) for m in mentions] == [("New York", PLACE), ("Biscuit", PET)]
    # Without the owner's knowledge a sentence-start name has no cue and reads as a person.
    assert found("Biscuit chewed my shoes again.") == {("Biscuit", PERSON)}
    (mention,) = recognise_entities("Biscuit chewed my shoes again.", known)
    assert (mention.kind, mention.salience) == (PET, 1.0)


def test_candidate_keys_let_a_blind_index_be_probed_for_any_question() -> None:
    assert candidate_name_keys("who is priya") == ["priya"]
    assert "ravi shankar" in candidate_name_keys("Was weißt du über Ravi Shankar?")
    assert "du" not in candidate_name_keys("Was weißt du über Ravi Shankar?")


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Dr. Okafor", "okafor"),
        ("Frau Dr. Schneider", "schneider"),
        ("  The   Red  Cross ", "red cross"),
        ("Sarah\u2019s", "sarah"),
        ("Jonas'", "jonas"),
        ("Siemens", "siemens"),
        ("Krako\u0301w", "kraków"),
        ("STRASSE", "strasse"),
        ("Straße", "strasse"),
    ],
)
def test_the_index_key_ignores_case_spacing_titles_and_possessives(name: str, key: str) -> None:
    assert normalise_entity_name(name) == key


@given(st.text(max_size=40))
def test_normalising_a_key_again_gives_the_same_key(name: str) -> None:
    key = normalise_entity_name(name)
    assert normalise_entity_name(key) == key


@given(st.text(max_size=120))
def test_any_text_gives_well_formed_mentions(text: str) -> None:
    for mention in recognise_entities(text):
        assert 0.0 <= mention.salience <= 1.0
        assert 0 <= mention.start < mention.end <= len(text)


def test_a_mention_refuses_a_salience_outside_the_unit_interval() -> None:
    with pytest.raises(ValueError, match="salience"):
        EntityMention("Ravi", PERSON, 0, 4, 1.5)
