"""Merging near-duplicates never repeats what the memory already says."""

from __future__ import annotations

from hypothesis import given, strategies as st

from memlane.service.memories.merging import ADDITIONAL_CONTEXT, merged_content

LISBON = "I live in Lisbon"


def test_the_same_text_again_adds_nothing_whatever_its_case_spacing_or_punctuation() -> None:
    for again in (LISBON, "I live in Lisbon.", "i LIVE in   lisbon!", " I live in Lisbon \n"):
        assert merged_content(LISBON, again) == LISBON


def test_a_text_contained_in_the_memory_adds_nothing() -> None:
    old = "I live in Lisbon, near the river, since 2020."
    assert merged_content(old, "near the river") == old
    assert merged_content(old + ADDITIONAL_CONTEXT + "I work nights", "I work nights.") == (
        old + ADDITIONAL_CONTEXT + "I work nights"
    )


def test_a_text_that_says_everything_and_more_replaces_the_memory() -> None:
    fuller = "I live in Lisbon, near the river."
    assert merged_content(LISBON, fuller) == fuller


def test_new_words_are_appended_once_and_only_whole_words_count() -> None:
    assert merged_content(LISBON, "I work as a nurse") == (
        LISBON + ADDITIONAL_CONTEXT + "I work as a nurse"
    )
    assert merged_content("I like cats", "I like cat") != "I like cats"  # not a word of it


@given(st.text(min_size=1, max_size=80), st.text(min_size=1, max_size=80))
def test_merging_the_same_text_twice_is_idempotent(existing: str, new: str) -> None:
    once = merged_content(existing, new)
    assert merged_content(once, new) == once
    assert merged_content(existing, existing) == existing
