"""The paired bootstrap that judges a difference between two runs against question noise."""

from __future__ import annotations

import random

import pytest
from bench.bootstrap import paired_bootstrap, paired_values


def test_identical_runs_differ_by_nothing() -> None:
    runs = [0.0, 1.0, 0.5, 1.0, 0.0]
    diff = paired_bootstrap(runs, runs)
    assert (diff.delta, diff.low, diff.high) == (0.0, 0.0, 0.0)
    assert not diff.significant


def test_a_gain_on_every_question_is_significant() -> None:
    before = [0.0] * 30
    after = [1.0] * 30
    diff = paired_bootstrap(before, after)
    assert diff.delta == 1.0 and diff.low == 1.0
    assert diff.significant


def test_noise_without_a_real_difference_keeps_zero_inside_the_interval() -> None:
    rng = random.Random(1)
    before = [float(rng.random() < 0.5) for _ in range(400)]
    after = [float(rng.random() < 0.5) for _ in range(400)]
    diff = paired_bootstrap(before, after)
    assert diff.low < 0 < diff.high
    assert not diff.significant


def test_a_small_gain_on_few_questions_is_not_significant() -> None:
    before = [0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0]
    after = [1.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0]
    diff = paired_bootstrap(before, after)
    assert diff.delta == pytest.approx(0.125)
    assert diff.low <= 0


def test_the_interval_is_reproducible() -> None:
    before, after = [0.0, 1.0, 0.0, 1.0, 1.0], [1.0, 1.0, 0.0, 0.0, 1.0]
    assert paired_bootstrap(before, after) == paired_bootstrap(before, after)


def test_runs_of_different_lengths_are_refused() -> None:
    with pytest.raises(ValueError):
        paired_bootstrap([1.0], [1.0, 0.0])


def test_questions_are_paired_by_id_and_unscored_ones_left_out() -> None:
    before = {"b": 0.0, "a": 1.0, "c": None, "d": 0.5}
    after = {"a": 0.0, "b": 1.0, "c": 1.0}
    assert paired_values(before, after) == ([1.0, 0.0], [0.0, 1.0])
