"""Chunks of a long turn and the five ways to score it (bench/long_turns.py)."""

from __future__ import annotations

import numpy as np
from bench.long_turns import chunks, scores
from hypothesis import given, strategies as st

WORDS = st.lists(st.text("abcdefghij", min_size=1, max_size=12), min_size=1, max_size=400)


def test_a_short_text_is_its_own_one_chunk() -> None:
    assert chunks("I live in Lisbon.", 500, 100) == ["I live in Lisbon."]


@given(WORDS)
def test_chunks_cover_every_word_cut_at_spaces_and_overlap(words: list[str]) -> None:
    text = " ".join(words)
    pieces = chunks(text, 60, 15)
    assert all(len(p) <= 60 for p in pieces) or len(pieces) == 1
    covered = " ".join(pieces).split()
    assert set(words) <= set(covered)  # nothing of the text is left out
    assert pieces[0] == text[: len(pieces[0])] and text.endswith(pieces[-1])


def test_the_best_chunk_and_the_first_window_score_as_defined() -> None:
    query = np.asarray([1.0, 0.0])
    full = np.asarray([[0.0, 1.0], [1.0, 0.0]])  # turn 0's first window misses, turn 1's hits
    pieces = np.asarray([[0.0, 1.0], [0.6, 0.8], [1.0, 0.0]])  # turn 0: two chunks
    owner = np.asarray([0, 0, 1])
    got = scores(full, pieces, owner, query)
    assert list(got["first"]) == [0.0, 1.0]
    assert list(got["max"]) == [0.6, 1.0]
    assert np.allclose(got["top3"], [0.3, 1.0])
    assert np.allclose(got["first+max"], [0.3, 1.0])
    assert got["pooled"][1] == 1.0 and 0 < got["pooled"][0] < 0.6
