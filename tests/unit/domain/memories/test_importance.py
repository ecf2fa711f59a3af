"""Importance heuristics and type classification from EN/DE cue phrases."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from memlane.domain.memories.importance import (
    CUE_WEIGHTS,
    DEFAULT_CUES,
    CueBook,
    CueFamily,
    classify,
    estimate_importance,
    word_count_adjustment,
)
from memlane.domain.model import MemoryType

# Seven neutral words: no cue, and no word-count adjustment (5 <= words < 20).
NEUTRAL = "we talked about the weather in town"


def score_of(text: str) -> float:
    return estimate_importance(text)


@given(question=st.text(), answer=st.text())
def test_importance_of_any_text_lies_between_0_2_and_0_9(question: str, answer: str) -> None:
    assert 0.2 <= estimate_importance(question, answer) <= 0.9


@given(text=st.text())
def test_classification_never_infers_a_tool_result(text: str) -> None:
    assert classify(text) is not MemoryType.TOOL_RESULT


def test_a_neutral_message_of_ordinary_length_scores_the_base_0_30() -> None:
    assert score_of(NEUTRAL) == pytest.approx(0.30)


@pytest.mark.parametrize(
    ("family", "cue"),
    [(family, cue) for family, cues in DEFAULT_CUES.items() for cue in cues],
)
def test_every_built_in_cue_adds_its_family_weight(family: CueFamily, cue: str) -> None:
    text = f"{NEUTRAL} and {cue.removesuffix('*')}{'farbe' if cue.endswith('*') else ''} x"
    assert CueBook.default().families_in(text) == {family}
    expected = min(0.9, 0.30 + CUE_WEIGHTS[family])
    assert score_of(text) == pytest.approx(expected)


def test_cue_weights_are_those_of_the_design() -> None:
    assert dict(CUE_WEIGHTS) == {
        CueFamily.AI_NAMING: 0.40,
        CueFamily.IDENTITY: 0.35,
        CueFamily.CORRECTION: 0.30,
        CueFamily.PREFERENCE: 0.25,
    }


def test_two_identity_cues_add_the_identity_weight_only_once() -> None:
    text = "my name is Anna and i live in Berlin, nice to meet"
    assert score_of(text) == pytest.approx(0.30 + 0.35)


def test_two_families_each_add_their_weight() -> None:
    text = "actually i prefer tea over coffee these days"
    assert score_of(text) == pytest.approx(0.30 + 0.30 + 0.25)


def test_many_families_together_are_clamped_to_0_9() -> None:
    text = "your name is Max, my name is Anna, actually i love jazz"
    assert score_of(text) == 0.9


@pytest.mark.parametrize(
    "text",
    [
        "Ich heiße Anna und wohne seit Jahren hier",
        "Ich wohne in München seit vielen Jahren",
        "Mein Geburtstag ist am dritten Mai",
        "Ich komme aus Österreich, genauer gesagt Wien",
    ],
)
def test_german_identity_cues_match(text: str) -> None:
    assert CueBook.default().families_in(text) == {CueFamily.IDENTITY}
    assert classify(text) is MemoryType.FACT


def test_the_sharp_s_and_its_ss_spelling_both_match() -> None:
    assert classify("Du heißt ab jetzt Max") is MemoryType.FACT
    assert classify("Du heisst ab jetzt Max") is MemoryType.FACT


@pytest.mark.parametrize(
    ("text", "family"),
    [
        ("MY NAME IS ANNA", CueFamily.IDENTITY),
        ("I\u2019m from Vienna", CueFamily.IDENTITY),
        ("I\u2018m from Vienna", CueFamily.IDENTITY),
        ("I\u2019ll call you Jarvis", CueFamily.AI_NAMING),
        ("That\u2019s wrong, it was Tuesday", CueFamily.CORRECTION),
        ("I don\u2019t like olives", CueFamily.PREFERENCE),
        ("my  name\n is Anna", CueFamily.IDENTITY),
    ],
)
def test_case_curly_apostrophes_and_extra_whitespace_do_not_hide_a_cue(
    text: str, family: CueFamily
) -> None:
    assert family in CueBook.default().families_in(text)


@pytest.mark.parametrize(
    "text",
    [
        "that is factually correct",
        "i likely go there",
        "my favorites list is long",
        "Mein Liebling ist der Hund",
        "ich magnetisiere den Stab",
        "eigentlichkeit ist ein Wort",
    ],
)
def test_cues_match_on_word_boundaries_only(text: str) -> None:
    assert CueBook.default().families_in(text) == frozenset()


@pytest.mark.parametrize(
    "text", ["Meine Lieblingsfarbe ist Blau", "Lieblingsessen: Pizza", "mein lieblings Lied"]
)
def test_lieblings_matches_as_the_prefix_of_a_german_compound(text: str) -> None:
    assert CueBook.default().families_in(text) == {CueFamily.PREFERENCE}
    assert classify(text) is MemoryType.PREFERENCE


def test_lieblings_inside_a_word_does_not_match() -> None:
    assert CueBook.default().families_in("Die Unlieblingsfarbe gibt es nicht") == frozenset()


@pytest.mark.parametrize(
    ("word_count", "adjustment"),
    [(0, -0.05), (4, -0.05), (5, 0.0), (19, 0.0), (20, 0.05), (49, 0.05), (50, 0.10), (500, 0.10)],
)
def test_word_count_adjusts_by_one_step_not_cumulatively(
    word_count: int, adjustment: float
) -> None:
    assert word_count_adjustment(word_count) == adjustment


def test_the_answer_counts_towards_length_but_not_towards_cues() -> None:
    question = "what should i eat"  # four words, no cue
    assert estimate_importance(question) == pytest.approx(0.25)
    answer = "my name is Bob " + "word " * 45  # 50 words with the question
    assert estimate_importance(question, answer) == pytest.approx(0.30 + 0.10)


@pytest.mark.parametrize(
    ("text", "memory_type"),
    [
        ("From now on you are Jarvis and actually i prefer tea, my name is Anna", MemoryType.FACT),
        ("Actually i prefer tea, my name is Anna", MemoryType.CORRECTION),
        ("I prefer tea, my name is Anna", MemoryType.PREFERENCE),
        ("My name is Anna", MemoryType.FACT),
        ("Ich nenne dich Jarvis", MemoryType.FACT),
        ("Das ist falsch, ich meinte Dienstag", MemoryType.CORRECTION),
        ("Ich bevorzuge Tee", MemoryType.PREFERENCE),
        ("The weather was fine", MemoryType.CONTEXT),
        ("", MemoryType.CONTEXT),
    ],
)
def test_classification_follows_the_family_priority_order(
    text: str, memory_type: MemoryType
) -> None:
    assert classify(text) is memory_type


@given(text=st.text())
def test_classification_is_the_first_matching_family_in_priority_order(text: str) -> None:
    families = CueBook.default().families_in(text)
    expected = (
        MemoryType.FACT
        if CueFamily.AI_NAMING in families
        else MemoryType.CORRECTION
        if CueFamily.CORRECTION in families
        else MemoryType.PREFERENCE
        if CueFamily.PREFERENCE in families
        else MemoryType.FACT
        if CueFamily.IDENTITY in families
        else MemoryType.CONTEXT
    )
    assert classify(text) is expected


def test_extra_cues_from_configuration_extend_a_family() -> None:
    book = CueBook.default(extra={"preference": ["ich steh auf", "fan von*"]})
    assert classify("Ich steh auf Jazz", book) is MemoryType.PREFERENCE
    assert classify("Ich bin Fan von Fanfaren", book) is MemoryType.PREFERENCE
    assert estimate_importance("ich steh auf Jazz und Blues", cues=book) == pytest.approx(0.55)
    assert classify("Ich steh auf Jazz") is MemoryType.CONTEXT  # the default book is untouched


def test_extra_cues_keep_the_built_in_ones() -> None:
    book = CueBook.default(extra={"identity": ["ich bin"]})
    assert classify("my name is Anna", book) is MemoryType.FACT
    assert classify("Ich bin Lehrerin", book) is MemoryType.FACT


@pytest.mark.parametrize("blank", ["", "   ", "*", " * "])
def test_a_blank_extra_cue_is_ignored_rather_than_matching_everything(blank: str) -> None:
    book = CueBook.default(extra={"correction": [blank]})
    assert book.families_in("nothing to see here") == frozenset()


def test_an_extra_cue_for_an_unknown_family_is_rejected() -> None:
    with pytest.raises(ValueError):
        CueBook.default(extra={"hobby": ["i play"]})


def test_a_cue_with_regex_characters_is_matched_literally() -> None:
    book = CueBook.default(extra={"preference": ["c++ (lang)"]})
    assert book.families_in("i write c++ (lang) daily") == {CueFamily.PREFERENCE}
    assert book.families_in("i write cpp lang daily") == frozenset()
