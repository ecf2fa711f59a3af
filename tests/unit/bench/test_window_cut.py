"""The share of text past a model's window (bench/window_cut.py)."""

from __future__ import annotations

from bench.window_cut import cut_figures


def test_tokens_past_the_window_are_counted_as_cut() -> None:
    figures = cut_figures([100, 300, 600], window=256)
    assert figures["turns_over_window"] == 2
    assert figures["share_of_turns_cut"] == round(2 / 3, 4)
    # (300 - 256) + (600 - 256) of 1,000 tokens never reach the model.
    assert figures["share_of_tokens_cut"] == 0.388
    assert figures["longest"] == 600


def test_text_inside_the_window_loses_nothing() -> None:
    figures = cut_figures([10, 256], window=256)
    assert figures["turns_over_window"] == 0 and figures["share_of_tokens_cut"] == 0.0


def test_an_empty_set_gives_zeros() -> None:
    assert cut_figures([], window=512)["share_of_tokens_cut"] == 0.0
