"""Edge strength fades from its last use by a curve computed at read time; use strengthens."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from uuid import uuid4

import pytest
from hypothesis import given, strategies as st

from memlane.domain.graph.edges import (
    HALF_LIFE_DAYS,
    REPLACING_KINDS,
    USE_BOOST,
    Edge,
    EdgeKind,
    strength,
    used,
)
from memlane.domain.graph.semantic import semantic_edges

T0 = datetime(2030, 1, 1, tzinfo=UTC)
kinds = st.sampled_from(list(EdgeKind))
weights = st.floats(0.0, 1.0)
days = st.floats(0.0, 3650.0)


def an_edge(kind: EdgeKind = EdgeKind.SEMANTIC, weight: float = 0.8) -> Edge:
    return Edge(uuid4(), uuid4(), kind, weight, T0, T0)


@given(kind=kinds, weight=weights, later=days)
def test_strength_stays_within_zero_and_the_stored_weight(
    kind: EdgeKind, weight: float, later: float
) -> None:
    value = strength(an_edge(kind, weight), T0 + timedelta(days=later))
    assert 0.0 <= value <= weight


@given(kind=kinds, weight=weights, first=days, second=days)
def test_strength_never_grows_with_time(
    kind: EdgeKind, weight: float, first: float, second: float
) -> None:
    edge = an_edge(kind, weight)
    early, late = sorted((first, second))
    assert strength(edge, T0 + timedelta(days=late)) <= strength(
        edge, T0 + timedelta(days=early)
    ) + 1e-12


def test_a_semantic_edge_halves_each_half_life_and_a_chain_never_fades() -> None:
    half_life = HALF_LIFE_DAYS[EdgeKind.SEMANTIC]
    assert half_life is not None
    later = T0 + timedelta(days=half_life)
    assert strength(an_edge(EdgeKind.SEMANTIC, 0.8), later) == pytest.approx(0.4)
    assert strength(an_edge(EdgeKind.CHAIN, 0.8), later) == 0.8
    assert strength(an_edge(EdgeKind.SUPERSEDES, 1.0), later) == 1.0


@given(kind=kinds, weight=weights, later=days)
def test_use_adds_the_boost_to_the_strength_now_capped_at_one(
    kind: EdgeKind, weight: float, later: float
) -> None:
    now = T0 + timedelta(days=later)
    edge = an_edge(kind, weight)
    after = used(edge, now)
    assert after.weight == pytest.approx(min(1.0, strength(edge, now) + USE_BOOST))
    assert after.activated_at == now
    # Reading the used edge at the moment of use gives what was written: nothing compounds.
    assert strength(after, now) == after.weight


@pytest.mark.parametrize("weight", [-0.1, 1.01, math.nan])
def test_a_weight_outside_zero_to_one_is_refused(weight: float) -> None:
    with pytest.raises(ValueError, match="weight"):
        an_edge(weight=weight)


def test_an_edge_from_a_memory_to_itself_is_refused() -> None:
    same = uuid4()
    with pytest.raises(ValueError, match="different"):
        Edge(same, same, EdgeKind.CAUSAL, 0.5, T0, T0)


def test_semantic_edges_link_only_neighbours_at_or_above_the_threshold_strongest_first() -> None:
    new, a, b, c, d = (uuid4() for _ in range(5))
    near = [(a, 0.9), (b, 0.34), (c, 0.35), (d, math.nan), (new, 1.0), (a, 0.5)]
    edges = semantic_edges(new, near, T0, threshold=0.35)
    assert [(e.target, e.weight) for e in edges] == [(a, 0.9), (c, 0.35)]
    assert all(e.source == new and e.kind == EdgeKind.SEMANTIC for e in edges)


@given(cosines=st.lists(st.floats(-1.0, 1.0), max_size=40), limit=st.integers(0, 25))
def test_semantic_edges_never_exceed_the_limit(cosines: list[float], limit: int) -> None:
    near = [(uuid4(), c) for c in cosines]
    edges = semantic_edges(uuid4(), near, T0, threshold=0.0, limit=limit)
    assert len(edges) <= limit
    assert [e.weight for e in edges] == sorted((e.weight for e in edges), reverse=True)


def test_supersedes_and_contradiction_are_the_kinds_that_replace() -> None:
    replacing = {k for k in EdgeKind if k.replaces}
    assert replacing == REPLACING_KINDS == {EdgeKind.SUPERSEDES, EdgeKind.CONTRADICTION}
