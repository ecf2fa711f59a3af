"""Edge strength is read, never stored faded: banking the fade at t1 and reading at t2 agree."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from uuid import UUID

import pytest
from hypothesis import given, strategies as st

from memlane.domain.graph.edges import HALF_LIFE_DAYS, USE_BOOST, Edge, EdgeKind, strength, used

T0 = datetime(2030, 1, 1, tzinfo=UTC)
kinds = st.sampled_from(list(EdgeKind))
weights = st.floats(0.0, 1.0)
days = st.floats(0.0, 3650.0)


def an_edge(kind: EdgeKind, weight: float) -> Edge:
    return Edge(UUID(int=1), UUID(int=2), kind, weight, T0, T0)


def at(day: float) -> datetime:
    return T0 + timedelta(days=day)


@given(kind=kinds, weight=weights, first=days, second=days)
def test_banking_the_fade_at_t1_then_reading_at_t2_equals_reading_at_t2(
    kind: EdgeKind, weight: float, first: float, second: float
) -> None:
    edge = an_edge(kind, weight)
    t1, t2 = sorted((at(first), at(second)))
    banked = replace(edge, weight=strength(edge, t1), activated_at=t1)
    assert strength(banked, t2) == pytest.approx(strength(edge, t2), rel=1e-9, abs=1e-12)


@given(kind=kinds, weight=weights, first=days, second=days)
def test_a_use_then_a_later_read_fades_from_the_boosted_strength(
    kind: EdgeKind, weight: float, first: float, second: float
) -> None:
    edge = an_edge(kind, weight)
    t1, t2 = sorted((at(first), at(second)))
    boosted = min(1.0, strength(edge, t1) + USE_BOOST)
    fresh = an_edge(kind, boosted)
    expected = strength(fresh, T0 + (t2 - t1))
    assert strength(used(edge, t1), t2) == pytest.approx(expected, rel=1e-9, abs=1e-12)


@given(kind=kinds, weight=weights, later=days)
def test_a_use_never_weakens_an_edge_and_never_lifts_it_past_one(
    kind: EdgeKind, weight: float, later: float
) -> None:
    edge = an_edge(kind, weight)
    now = at(later)
    assert strength(edge, now) <= strength(used(edge, now), now) <= 1.0


@given(kind=kinds, low=weights, high=weights, later=days)
def test_a_stronger_stored_weight_stays_stronger_at_any_time(
    kind: EdgeKind, low: float, high: float, later: float
) -> None:
    low, high = sorted((low, high))
    assert strength(an_edge(kind, low), at(later)) <= strength(an_edge(kind, high), at(later))


@given(weight=weights, later=days)
def test_chain_supersedes_and_contradiction_edges_never_fade(weight: float, later: float) -> None:
    for kind in (k for k, half_life in HALF_LIFE_DAYS.items() if half_life is None):
        assert strength(an_edge(kind, weight), at(later)) == weight


@given(kind=kinds, weight=weights, earlier=st.floats(0.001, 3650.0))
def test_a_read_before_the_last_use_gives_the_stored_weight(
    kind: EdgeKind, weight: float, earlier: float
) -> None:
    assert strength(an_edge(kind, weight), at(-earlier)) == weight


def test_every_kind_has_a_half_life_or_none() -> None:
    assert set(HALF_LIFE_DAYS) == set(EdgeKind)
    assert {k for k, h in HALF_LIFE_DAYS.items() if h is None} >= {
        EdgeKind.CHAIN, EdgeKind.SUPERSEDES,
    }
