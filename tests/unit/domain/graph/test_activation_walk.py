"""The join floor never turns away a memory that could have made the context."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, strategies as st

from memlane.domain.graph.activation_walk import Walk, join_floor

unit = st.floats(0.0, 1.0)


@given(
    entries=st.lists(st.tuples(st.floats(0.01, 1.0), unit), min_size=1, max_size=30),
    newcomer=st.tuples(st.floats(0.0, 1.0), unit),
    places=st.integers(1, 12),
    tiebreak=st.floats(0.0, 0.5),
)
def test_a_memory_below_the_floor_never_ranks_among_the_places(
    entries: list[tuple[float, float]], newcomer: tuple[float, float], places: int,
    tiebreak: float,
) -> None:
    # (match, relevance) pairs; the newcomer's match is at most the best entry's, as a
    # memory the graph brings always is.
    best = max(m for m, _ in entries)
    match, relevance = min(newcomer[0], best), newcomer[1]

    def score(candidate: tuple[float, float]) -> float:
        return candidate[0] / best + tiebreak * candidate[1]

    if match < join_floor([m for m, _ in entries], places, tiebreak):
        # At least `places` entries outrank it, whatever the relevances.
        assert sum(1 for e in entries if score(e) > score((match, relevance))) >= places


def test_no_places_or_too_few_candidates_set_no_floor() -> None:
    assert join_floor([0.9, 0.5], None, 0.05) == -math.inf
    assert join_floor([0.9, 0.5], 3, 0.05) == -math.inf
    assert join_floor([0.9, 0.5, 0.4], 2, 0.1) == 0.5 - 0.1 * 0.9


@pytest.mark.parametrize(("fan_out", "frontier"), [(-1, 0), (0, -1)])
def test_a_walk_refuses_a_negative_bound(fan_out: int, frontier: int) -> None:
    with pytest.raises(ValueError, match="must not be negative"):
        Walk({}, fan_out=fan_out, frontier=frontier)
