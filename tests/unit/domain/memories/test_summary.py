"""Deterministic summaries and the Q&A content form."""

from __future__ import annotations

from hypothesis import given, strategies as st

from memlane.domain.memories.summary import ELLIPSIS, qa_content, summarize, truncate

words = st.text(alphabet=st.characters(codec="utf-8"), max_size=600)
# Something to say on each side of a Q&A pair (learning skips near-empty pairs anyway).
said = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="→"), max_size=400).filter(
    str.strip
)


@given(content=words)
def test_a_summary_is_never_longer_than_200_characters(content: str) -> None:
    assert len(summarize(content)) <= 200


@given(content=words)
def test_summarizing_is_deterministic(content: str) -> None:
    assert summarize(content) == summarize(content)


@given(question=said, answer=said)
def test_a_qa_summary_keeps_at_most_100_question_and_50_answer_characters(
    question: str, answer: str
) -> None:
    summary = summarize(qa_content(question, answer))
    assert len(summary) <= 200
    assert summary.startswith("Q: ")
    q_part, a_part = summary[3:].split(" → A: ", 1)
    assert len(q_part) <= 100
    assert len(a_part) <= 50


@given(text=words, max_chars=st.integers(min_value=1, max_value=300))
def test_truncation_fits_the_limit_and_keeps_a_prefix_of_the_flattened_text(
    text: str, max_chars: int
) -> None:
    flat = " ".join(text.split())
    cut = truncate(text, max_chars)
    assert len(cut) <= max_chars
    if len(flat) <= max_chars:
        assert cut == flat
    else:
        assert cut.endswith(ELLIPSIS)
        assert flat.startswith(cut.removesuffix(ELLIPSIS))


def test_the_summary_is_the_first_sentence() -> None:
    assert summarize("I live in Berlin. I work as a nurse!") == "I live in Berlin."
    assert summarize("Really? Yes.") == "Really?"


def test_a_short_single_sentence_is_its_own_summary_with_whitespace_collapsed() -> None:
    assert summarize("  my   name\nis Anna  ") == "my name is Anna"


def test_a_long_first_sentence_is_cut_at_a_word_boundary_with_an_ellipsis() -> None:
    content = " ".join(["word"] * 80)
    summary = summarize(content)
    assert len(summary) <= 200
    assert summary.endswith("word" + ELLIPSIS)
    assert summary.removesuffix(ELLIPSIS).split() == ["word"] * len(summary.split())


def test_a_qa_pair_is_stored_as_q_and_a_lines() -> None:
    assert qa_content("  Where do I live? ", " Berlin\n") == "Q: Where do I live?\nA: Berlin"


def test_a_qa_pair_is_summarized_with_an_arrow() -> None:
    content = qa_content("What is my favourite colour?", "Blue, as you told me.")
    assert summarize(content) == "Q: What is my favourite colour? → A: Blue, as you told me."


def test_a_long_qa_pair_is_cut_on_both_sides() -> None:
    question = "why " * 60
    answer = "because " * 20
    summary = summarize(qa_content(question, answer))
    q_part, a_part = summary[3:].split(" → A: ", 1)
    assert q_part.endswith(ELLIPSIS) and len(q_part) <= 100
    assert a_part.endswith(ELLIPSIS) and len(a_part) <= 50


def test_merged_qa_content_still_summarizes_as_qa() -> None:
    content = qa_content("Where do I work?", "At the hospital.") + "\n\nAdditional context: nights"
    assert summarize(content).startswith("Q: Where do I work? → A: At the hospital.")
