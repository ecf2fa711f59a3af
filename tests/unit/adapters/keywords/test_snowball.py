"""SnowballKeywordAdapter: stems, stop words, numbers, normalisation, determinism."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from memlane.adapters.keywords.snowball import MAX_TERM_CHARS, SnowballKeywordAdapter
from memlane.adapters.keywords.stopwords import ENGLISH_STOP_WORDS
from memlane.domain.errors import ConfigurationError


@pytest.fixture(scope="module")
def keywords() -> SnowballKeywordAdapter:
    return SnowballKeywordAdapter()


def test_inflections_of_one_word_become_the_same_term(keywords: SnowballKeywordAdapter) -> None:
    assert keywords.terms("running") == keywords.terms("runs") == ["run"]


def test_stop_words_are_dropped_and_content_words_kept_in_order(
    keywords: SnowballKeywordAdapter,
) -> None:
    assert keywords.terms("I live in the city of Lisbon") == ["live", "citi", "lisbon"]


def test_numbers_are_kept_as_terms(keywords: SnowballKeywordAdapter) -> None:
    terms = keywords.terms("Moved to Porto in 2023, flat 42")
    assert terms == ["move", "porto", "2023", "flat", "42"]


def test_case_and_unicode_compatibility_forms_do_not_change_the_terms(
    keywords: SnowballKeywordAdapter,
) -> None:
    assert keywords.terms("\uff2c\uff29\uff33\uff22\uff2f\uff2e Stra\u00dfe") == keywords.terms(
        "lisbon strasse"
    )


def test_possessives_with_either_apostrophe_reduce_to_the_noun(
    keywords: SnowballKeywordAdapter,
) -> None:
    assert keywords.terms("my sister's car") == keywords.terms("my sister\u2019s car")
    assert keywords.terms("my sister's car") == ["sister", "car"]


def test_negations_stay_searchable(keywords: SnowballKeywordAdapter) -> None:
    assert "not" in keywords.terms("I do not eat meat")


def test_duplicates_are_kept_because_term_frequency_matters(
    keywords: SnowballKeywordAdapter,
) -> None:
    assert keywords.terms("coffee coffee") == ["coffe", "coffe"]


def test_punctuation_and_underscores_split_words(keywords: SnowballKeywordAdapter) -> None:
    assert keywords.terms("python_3/rust...go!") == ["python", "3", "rust", "go"]


def test_overlong_tokens_are_not_indexed(keywords: SnowballKeywordAdapter) -> None:
    assert keywords.terms("key " + "a" * 200) == ["key"]


def test_empty_and_stop_word_only_text_have_no_terms(keywords: SnowballKeywordAdapter) -> None:
    assert keywords.terms("") == []
    assert keywords.terms("and then I was there") == []


def test_the_same_text_always_gives_the_same_terms() -> None:
    text = "Alice prefers green tea over coffee since 2021"
    first = SnowballKeywordAdapter().terms(text)
    assert first == SnowballKeywordAdapter().terms(text)
    assert first == ["alic", "prefer", "green", "tea", "coffe", "sinc", "2021"]


def test_an_unknown_language_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError, match="klingon"):
        SnowballKeywordAdapter(language="klingon")


def test_german_function_words_are_dropped_on_the_default_keywords(
    keywords: SnowballKeywordAdapter,
) -> None:
    # "ich" in every German memory outranked an English answer to a German question.
    assert keywords.terms("Was arbeite ich?") == ["arbeit"]
    assert keywords.terms("Meine Freundin ist Ärztin in der Charité") == [
        "freundin",
        "ärztin",
        "charité",
    ]


def test_german_words_that_are_english_words_stay_searchable(
    keywords: SnowballKeywordAdapter,
) -> None:
    assert keywords.terms("the war in the den, a man with a hat") == ["war", "den", "man", "hat"]


def test_another_language_stems_without_english_stop_words() -> None:
    assert SnowballKeywordAdapter(language="german").terms("die Häuser") == ["die", "haus"]


@given(st.text(max_size=300))
@settings(max_examples=300, deadline=None)
def test_any_text_gives_clean_terms_and_the_same_terms_twice(text: str) -> None:
    adapter = _SHARED
    terms = adapter.terms(text)
    assert terms == adapter.terms(text)
    for term in terms:
        assert term and len(term) <= MAX_TERM_CHARS
        assert term == term.casefold()
        assert not any(ch.isspace() for ch in term) and "'" not in term
        assert term not in ENGLISH_STOP_WORDS


_SHARED = SnowballKeywordAdapter()
