"""The language axis: from the same sentences in two languages, which side a text is on;
and each model's offsets for a pair of languages."""

from __future__ import annotations

import pytest

from memlane.domain.retrieval.language import (
    DOCUMENT_CUT,
    ENGLISH,
    GERMAN,
    PARALLEL,
    language_axis,
)
from memlane.domain.similarity import MINILM, MULTILINGUAL_E5, scale_of

EN = [[-0.3, 1.0, 0.0], [-0.1, 1.0, 0.2]]
DE = [[0.3, 1.0, 0.0], [0.5, 1.0, 0.2]]


def test_the_axis_points_from_english_to_german_and_is_a_unit_vector() -> None:
    axis = language_axis(EN, DE, EN, DE)
    assert axis.direction == pytest.approx((1.0, 0.0, 0.0))
    # The documents' cut lies three quarters of the way to German, the questions' halfway.
    assert axis.document_cut == pytest.approx(-0.2 + DOCUMENT_CUT * 0.6)
    assert axis.question_cut == pytest.approx(0.1)


def test_a_text_is_german_past_its_kinds_cut_and_english_before_it() -> None:
    axis = language_axis(EN, DE, EN, DE)
    assert axis.of_document(0.3) == GERMAN
    assert axis.of_document(0.2) == ENGLISH  # past the midpoint, not past the cut
    assert axis.of_question([0.2, 1.0, 0.0]) == GERMAN
    assert axis.of_question([0.0, 1.0, 0.0]) == ENGLISH


@pytest.mark.parametrize("english, german", [([], []), (EN, DE[:1])])
def test_the_axis_needs_the_same_sentences_in_both_languages(english: list, german: list) -> None:
    with pytest.raises(ValueError, match="same sentences"):
        language_axis(english, german, EN, DE)


def test_two_languages_in_one_place_have_no_axis() -> None:
    with pytest.raises(ValueError, match="no axis"):
        language_axis(EN, EN, EN, DE)


def test_the_parallel_sentences_are_pairs_of_distinct_texts() -> None:
    assert len(PARALLEL) >= 20
    assert all(english != german for english, german in PARALLEL)
    assert len({english for english, _ in PARALLEL}) == len(PARALLEL)


def test_e5_rates_german_memories_higher_and_minilm_has_no_offsets() -> None:
    e5 = scale_of(MULTILINGUAL_E5)
    assert e5.language_offset(GERMAN, GERMAN) > e5.language_offset(ENGLISH, GERMAN) > 0
    assert e5.language_offset(GERMAN, ENGLISH) < 0
    assert e5.language_offset(ENGLISH, ENGLISH) == 0.0  # the reference pair
    assert scale_of(MINILM).language_offsets == ()
    assert scale_of(MINILM).language_offset(GERMAN, GERMAN) == 0.0
