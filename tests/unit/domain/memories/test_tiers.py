"""Tiers: abstract and overview within their sizes, long input cut into parts, nothing lost."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from memlane.domain.memories.tiers import (
    L0_MAX_CHARS,
    L1_MAX_CHARS,
    L2_MAX_CHARS,
    Tier,
    abstract,
    build_tiers,
    overview,
    sentences,
    split_parts,
)

TEXT = st.lists(
    st.sampled_from([*"abcdefghij ÄÖüß.!?\n\"'-:0123456789", "Lisbon", "Anna ", ". ", "\n\n"]),
    max_size=1_500,
).map("".join)


@given(TEXT)
def test_the_abstract_and_the_overview_never_exceed_their_sizes(text: str) -> None:
    tiers = build_tiers(text)
    assert len(tiers.abstract) <= L0_MAX_CHARS
    assert len(tiers.overview) <= L1_MAX_CHARS


@given(TEXT)
def test_tiers_are_a_function_of_the_content(text: str) -> None:
    assert build_tiers(text) == build_tiers(text)


@settings(max_examples=60)
@given(TEXT, st.integers(min_value=20, max_value=400))
def test_parts_fit_and_keep_every_word_in_order(text: str, max_chars: int) -> None:
    parts = split_parts(text, max_chars)
    assert all(len(p) <= max_chars for p in parts)
    assert "".join("".join(p.split()) for p in parts) == "".join(text.split())


def test_a_text_within_the_detail_tier_is_one_part() -> None:
    text = "I moved to Lisbon. " * 50
    assert split_parts(text) == [text.strip()]


def test_a_long_text_is_cut_at_sentences_not_inside_one() -> None:
    sentence = "Anna booked the flight to Lisbon for the conference in May. "
    parts = split_parts(sentence * 200)
    assert len(parts) == 3
    assert all(len(p) <= L2_MAX_CHARS for p in parts)
    assert all(p.endswith("May.") for p in parts)


def test_the_abstract_is_the_first_sentence_that_says_something() -> None:
    content = "user: hi\nassistant: I moved to Lisbon last week and I love the light there."
    assert abstract(content) == "assistant: I moved to Lisbon last week and I love the light there."


def test_a_long_first_sentence_is_cut_at_a_word_with_an_ellipsis() -> None:
    content = "We talked about " + "the renovation of the kitchen and " * 10 + "the garden."
    cut = abstract(content)
    assert len(cut) <= L0_MAX_CHARS and cut.endswith("…") and " the renovation" in cut


def test_an_overview_of_a_short_memory_is_the_memory() -> None:
    content = "I prefer tea.\nMy sister Anna lives in Porto."
    assert overview(content) == "I prefer tea. My sister Anna lives in Porto."


def test_an_overview_of_a_long_memory_opens_with_its_first_sentence_and_keeps_the_order() -> None:
    filler = [f"Aside {i}: {w} {w}s onward." for i, w in enumerate(
        f"{a}{b}" for a in ("pal", "tor", "vin", "mes", "dul", "ker") for b in "aeiouxyzqw")]
    content = " ".join(["The kitchen renovation starts in May.", *filler,
                        "The kitchen renovation budget for the kitchen is 20k."])
    text = overview(content)
    assert text.startswith("The kitchen renovation starts in May.")
    assert len(text) <= L1_MAX_CHARS
    assert "budget for the kitchen" in text  # its words recur: it is chosen over filler
    assert [s for s in sentences(content) if s in text] == sentences(text)


def test_each_tier_names_its_text() -> None:
    tiers = build_tiers("One. Two.")
    assert tiers.text(Tier.L0, "full") == tiers.abstract
    assert tiers.text(Tier.L1, "full") == tiers.overview
    assert tiers.text(Tier.L2, "full") == "full"
