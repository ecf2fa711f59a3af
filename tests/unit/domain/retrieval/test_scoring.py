"""Relevance: weighted similarity, importance and hourly freshness."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, strategies as st

from memlane.domain.retrieval.scoring import RelevanceWeights, freshness, relevance

NOW = datetime(2025, 6, 1, 12, tzinfo=UTC)

unit = st.floats(min_value=0.0, max_value=1.0)
cosines = st.floats(min_value=-1.0, max_value=1.0)
hours = st.floats(min_value=0.0, max_value=24.0 * 3650)
weights = st.builds(
    RelevanceWeights,
    similarity=st.floats(min_value=0.0, max_value=10.0),
    importance=st.floats(min_value=0.0, max_value=10.0),
    freshness=st.floats(min_value=0.01, max_value=10.0),
)


def hours_ago(hours_: float) -> datetime:
    return NOW - timedelta(hours=hours_)


def test_freshness_is_one_right_after_an_access() -> None:
    assert freshness(NOW, NOW) == 1.0


def test_freshness_is_about_0_79_after_a_day_and_0_19_after_a_week() -> None:
    assert freshness(hours_ago(24), NOW) == pytest.approx(0.7866, abs=1e-4)
    assert freshness(hours_ago(24 * 7), NOW) == pytest.approx(0.1864, abs=1e-4)


def test_an_access_in_the_future_counts_as_fresh_not_fresher() -> None:
    assert freshness(NOW + timedelta(hours=5), NOW) == 1.0


@given(similarity=cosines, importance=unit, age_hours=hours)
def test_relevance_is_half_similarity_a_fifth_importance_and_three_tenths_freshness(
    similarity: float, importance: float, age_hours: float
) -> None:
    accessed_at = hours_ago(age_hours)
    elapsed_hours = (NOW - accessed_at).total_seconds() / 3600
    expected = 0.5 * similarity + 0.2 * importance + 0.3 * math.exp(-0.01 * elapsed_hours)
    assert relevance(similarity, importance, accessed_at, NOW) == pytest.approx(
        expected, rel=1e-12, abs=1e-15
    )


@given(w=weights, similarity=cosines, importance=unit, age_hours=hours)
def test_custom_weights_are_respected(
    w: RelevanceWeights, similarity: float, importance: float, age_hours: float
) -> None:
    accessed_at = hours_ago(age_hours)
    expected = (
        w.similarity * similarity
        + w.importance * importance
        + w.freshness * freshness(accessed_at, NOW)
    )
    assert relevance(similarity, importance, accessed_at, NOW, w) == pytest.approx(
        expected, rel=1e-12, abs=1e-12
    )


@given(a=cosines, b=cosines, importance=unit, age_hours=hours, w=weights)
def test_relevance_never_falls_as_similarity_rises(
    a: float, b: float, importance: float, age_hours: float, w: RelevanceWeights
) -> None:
    low, high = sorted((a, b))
    at = hours_ago(age_hours)
    assert relevance(low, importance, at, NOW, w) <= relevance(high, importance, at, NOW, w)


@given(a=unit, b=unit, similarity=cosines, age_hours=hours, w=weights)
def test_relevance_never_falls_as_importance_rises(
    a: float, b: float, similarity: float, age_hours: float, w: RelevanceWeights
) -> None:
    low, high = sorted((a, b))
    at = hours_ago(age_hours)
    assert relevance(similarity, low, at, NOW, w) <= relevance(similarity, high, at, NOW, w)


@given(a=hours, b=hours, similarity=cosines, importance=unit, w=weights)
def test_relevance_never_rises_as_the_last_access_grows_older(
    a: float, b: float, similarity: float, importance: float, w: RelevanceWeights
) -> None:
    young, old = sorted((a, b))
    assert relevance(similarity, importance, hours_ago(old), NOW, w) <= relevance(
        similarity, importance, hours_ago(young), NOW, w
    )


def test_the_default_weights_are_those_of_the_design() -> None:
    w = RelevanceWeights()
    assert (w.similarity, w.importance, w.freshness) == (0.50, 0.20, 0.30)


@pytest.mark.parametrize(
    "bad",
    [
        {"similarity": -0.1},
        {"importance": -1.0},
        {"freshness": math.nan},
        {"similarity": math.inf},
        {"similarity": 0.0, "importance": 0.0, "freshness": 0.0},
    ],
)
def test_negative_non_finite_or_all_zero_weights_are_rejected(bad: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        RelevanceWeights(**bad)
