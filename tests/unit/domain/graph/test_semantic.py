"""Semantic edges at write time, and the per-memory cap where the weakest link gives way."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from uuid import UUID, uuid4

from hypothesis import given, strategies as st

from memlane.domain.graph.edges import EdgeKind
from memlane.domain.graph.semantic import semantic_edges

T0 = datetime(2030, 1, 1, tzinfo=UTC)
NODES = [UUID(int=i + 1) for i in range(7)]
NEW = UUID(int=100)

cosines = st.one_of(st.floats(-1.5, 1.5), st.just(math.nan))
probes = st.lists(st.tuples(st.sampled_from([*NODES, NEW]), cosines), max_size=30)


@given(near=probes, threshold=st.floats(-1.0, 1.0), limit=st.integers(0, 25))
def test_semantic_edges_keep_the_best_valid_neighbours_at_or_above_the_threshold(
    near: list[tuple[UUID, float]], threshold: float, limit: int
) -> None:
    edges = semantic_edges(NEW, near, T0, threshold=threshold, limit=limit)
    valid: dict[UUID, float] = {}
    for memory_id, cosine in near:
        if memory_id != NEW and not math.isnan(cosine) and max(0.0, threshold) <= cosine <= 1:
            valid[memory_id] = max(cosine, valid.get(memory_id, -2.0))
    assert len(edges) == min(limit, len(valid))
    assert len({e.target for e in edges}) == len(edges)
    for edge in edges:
        assert (edge.source, edge.kind) == (NEW, EdgeKind.SEMANTIC)
        assert edge.weight == valid[edge.target]
    left_out = [c for i, c in valid.items() if i not in {e.target for e in edges}]
    if left_out and edges:
        assert max(left_out) <= min(e.weight for e in edges)


@given(near=probes, low=st.floats(0.0, 1.0), high=st.floats(0.0, 1.0))
def test_raising_the_threshold_never_adds_an_edge(
    near: list[tuple[UUID, float]], low: float, high: float
) -> None:
    low, high = sorted((low, high))
    strict = {e.target for e in semantic_edges(NEW, near, T0, threshold=high)}
    assert strict <= {e.target for e in semantic_edges(NEW, near, T0, threshold=low)}


def test_cosines_above_one_or_infinite_make_no_edge() -> None:
    a, b, c = uuid4(), uuid4(), uuid4()
    edges = semantic_edges(NEW, [(a, 0.5), (b, 1.2), (c, math.inf)], T0, threshold=0.0)
    assert [e.target for e in edges] == [a]


def test_a_negative_cosine_makes_no_edge_even_under_a_negative_threshold() -> None:
    assert semantic_edges(NEW, [(uuid4(), -0.5)], T0, threshold=-1.0) == []

