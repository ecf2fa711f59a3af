"""Whose fact a question asks about and a memory states, EN/DE: the user or a relative, and
the factor a memory's match is multiplied by."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from memlane.domain.facts import (
    PersonReading,
    person_asked,
    person_stated,
    stated_factor,
    whose_factor,
)

W = 0.5


@pytest.mark.parametrize(("question", "holder"), [
    ("Wogegen bin ich allergisch?", "self"),
    ("Wann habe ich Geburtstag?", "self"),
    ("When is my birthday?", "self"),
    ("What did I buy my sister?", "self"),
    ("What is my brother allergic to?", "brother"),
    ("When is my mother's birthday?", "mother"),
    ("Wann hat meine Mutter Geburtstag?", "mother"),
    ("Which sport does my son play?", "son"),
    ("Welchen Sport spielt mein Sohn?", "son"),
    ("Where do my parents live?", "parents"),
    ("Wo wohnen meine Eltern?", "parents"),
])
def test_a_question_asks_about_the_user_or_one_relative(question: str, holder: str) -> None:
    assert person_asked(question).holder == holder


@pytest.mark.parametrize("question", [
    "What did Caroline's mother do?",  # someone else's people (LoCoMo, REALTALK)
    "When did Melanie paint a sunrise?",
    "Which US states might Tim visit?",  # "US" is no "us"
    "Wann ist das Teamtreffen?",
    "Which event happened first, my cousin's wedding or Michael's engagement party?",
])
def test_a_question_about_nobody_of_the_users_asks_about_nobody(question: str) -> None:
    assert person_asked(question).holder is None


@pytest.mark.parametrize(("statement", "holder"), [
    ("I'm allergic to peanuts.", "self"),
    ("My birthday is on the 14th of March.", "self"),
    ("Ich spiele seit zehn Jahren Cello.", "self"),
    ("Mein Bruder ist gegen Katzenhaare allergisch.", "brother"),
    ("My brother is allergic to cat hair.", "brother"),
    ("Der Geburtstag meiner Mutter ist am 2. Juli.", "mother"),
    ("My daughter Mia starts school in September.", "daughter"),
    ("Mein Sohn spielt Fußball im Verein.", "son"),
    ("user: My sister Jana works as a teacher.", "sister"),
    ("Caroline: I went to a support group.", "self"),
])
def test_a_memory_states_the_fact_of_its_subject_or_possessor(statement: str, holder: str) -> None:
    assert person_stated(statement).holder == holder


@pytest.mark.parametrize("statement", [
    "I bought my sister a scarf.",
    "Ich habe meiner Schwester einen Schal gekauft.",
])
def test_a_relative_as_the_object_leaves_the_fact_the_users(statement: str) -> None:
    stated = person_stated(statement)
    assert stated.holder == "self"
    assert "sister" in stated.named


@pytest.mark.parametrize(("text", "replied"), [
    ("assistant: I think your brother is allergic to cats.", False),
    ("I think your brother is allergic to cats.", True),
    ("The team meeting is every Monday at 10.", False),
    ("Tom got a new phone.", False),
])
def test_the_assistants_words_and_impersonal_ones_are_nobodys(text: str, replied: bool) -> None:
    assert person_stated(text, replied=replied).holder is None


def _factor(question: str, statement: str) -> float:
    return whose_factor(person_asked(question), person_stated(statement), W)


@pytest.mark.parametrize(("question", "statement", "factor"), [
    # The user asked: a relative's fact is lowered, the user's own is left as it ranks.
    ("Wogegen bin ich allergisch?", "Mein Bruder ist gegen Katzenhaare allergisch.", 1 - W),
    ("Wogegen bin ich allergisch?", "I'm allergic to peanuts.", 1.0),
    ("Wann habe ich Geburtstag?", "Der Geburtstag meiner Mutter ist am 2. Juli.", 1 - W),
    # A relative asked: theirs is lifted, the user's and another relative's lowered.
    ("What is my brother allergic to?", "Mein Bruder ist gegen Katzenhaare allergisch.", 1 + W),
    ("What is my brother allergic to?", "I'm allergic to peanuts.", 1 - W),
    ("When is my mother's birthday?", "Der Geburtstag meiner Mutter ist am 2. Juli.", 1 + W),
    ("When is my mother's birthday?", "My birthday is on the 14th of March.", 1 - W),
    ("Which sport does my son play?", "My daughter Mia starts school in September.", 1 - W),
    ("Which sport does my son play?", "Mein Sohn spielt Fußball im Verein.", 1 + W),
])
def test_the_person_asked_about_rises_and_another_sinks(
    question: str, statement: str, factor: float
) -> None:
    assert _factor(question, statement) == pytest.approx(factor)


@pytest.mark.parametrize(("question", "statement"), [
    # The memory speaks of the relative asked about, as an object.
    ("What does my sister like?", "I bought my sister a scarf."),
    # The question names the memory's relative too.
    ("What did I buy my sister?", "My sister loves scarves."),
    # "Freundin" may be the partner: a relation not known is not another person.
    ("What does my girlfriend do?", "Meine Freundin arbeitet als Ärztin."),
    # A member of the group asked about.
    ("Where do my parents live?", "Der Geburtstag meiner Mutter ist am 2. Juli."),
    # No person asked about, or none stated.
    ("What did Caroline's mother do?", "Caroline: My mother passed away."),
    ("Wann ist das Teamtreffen?", "Mein Bruder ist gegen Katzenhaare allergisch."),
    ("What is my brother allergic to?", "The team meeting is every Monday at 10."),
])
def test_what_is_not_known_to_be_another_persons_keeps_its_match(
    question: str, statement: str
) -> None:
    assert _factor(question, statement) == 1.0


@given(st.floats(0, 0.99), st.sampled_from([None, "self", "brother", "mother", "freundin"]),
       st.sampled_from([None, "self", "brother", "mother", "freundin"]))
def test_the_factor_stays_within_one_weight_of_one_and_zero_weight_is_off(
    weight: float, asked: str | None, stated: str | None
) -> None:
    factor = whose_factor(PersonReading(asked), PersonReading(stated), weight)
    assert 1 - weight <= factor <= 1 + weight
    assert whose_factor(PersonReading(asked), PersonReading(stated), 0.0) == 1.0


@pytest.mark.parametrize(("question", "text", "replied"), [
    ("Wogegen bin ich allergisch?", "Mein Bruder ist gegen Katzenhaare allergisch.", False),
    ("Wogegen bin ich allergisch?", "I'm allergic to peanuts, my brother to cats.", False),
    ("What is my brother allergic to?", "user: I'm allergic to peanuts.", False),
    ("What is my brother allergic to?", "user: My brother is allergic to cats.\n"
     "assistant: I see, I am noting it.", False),
    ("What is my brother allergic to?", "I'm allergic to peanuts.", True),
    ("Wann ist das Teamtreffen?", "Mein Bruder ist gegen Katzenhaare allergisch.", False),
])
def test_the_factor_of_a_text_is_the_factor_of_its_reading(
    question: str, text: str, replied: bool
) -> None:
    asked = person_asked(question)
    assert stated_factor(asked, text, W, replied=replied) == whose_factor(
        asked, person_stated(text, replied=replied), W)


@pytest.mark.parametrize(("question", "statement", "factor"), [
    # A question about the user's pets speaks of every pet: the user's dog answers it.
    ("Habe ich Haustiere?", "Mein Hund heißt Pepper.", 1.0),
    ("Do I have any pets?", "My cat Luna turned three.", 1.0),
    ("Do I have pets?", "My puppy chewed through the sofa.", 1.0),
    # Someone else's pet is still someone else's.
    ("Habe ich Haustiere?", "Meine Schwester hat einen Hund.", 1.0 - W),
    # A pet's fact is not the user's when the question is not about pets.
    ("What am I allergic to?", "My dog is allergic to chicken.", 1.0 - W),
    ("Wogegen bin ich allergisch?", "Mein Hund ist gegen Huhn allergisch.", 1.0 - W),
])
def test_a_question_about_pets_is_answered_by_the_users_pet(
    question: str, statement: str, factor: float
) -> None:
    assert stated_factor(person_asked(question), statement, W) == pytest.approx(factor)
