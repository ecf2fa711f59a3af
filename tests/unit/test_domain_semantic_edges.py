"""Semantic edges at write time, and the per-memory cap where the weakest link gives way."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memlane.domain.edge_cap import CapDecision, degrees, evict_over_cap, rank_key
from memlane.domain.graph import Edge, EdgeKind
from memlane.domain.semantic_edges import semantic_edges

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


def semantic(source: UUID, target: UUID, weight: float, used_days_ago: float = 0.0) -> Edge:
    at = T0 - timedelta(days=used_days_ago)
    return Edge(source, target, EdgeKind.SEMANTIC, weight, at, at)


@st.composite
def graphs(draw: st.DrawFn) -> tuple[list[Edge], list[Edge], int]:
    """Stored semantic edges among seven memories, a write's incoming edges (from the new
    memory and between old ones) and a cap."""

    def edge(pairs: st.SearchStrategy[tuple[UUID, UUID]]) -> st.SearchStrategy[Edge]:
        return st.builds(
            lambda pair, weight, days: semantic(pair[0], pair[1], weight, days),
            pairs, st.floats(0.0, 1.0), st.sampled_from([0.0, 3.0, 45.0]),
        )

    old_pairs = st.tuples(st.sampled_from(NODES), st.sampled_from(NODES)).filter(
        lambda p: p[0] != p[1]
    )
    new_pairs = st.tuples(st.just(NEW), st.sampled_from(NODES))
    existing = draw(st.lists(edge(old_pairs), max_size=18))
    incoming = draw(st.lists(edge(st.one_of(new_pairs, old_pairs)), max_size=10))
    return existing, incoming, draw(st.integers(0, 5))


def applied(existing: list[Edge], decision: CapDecision) -> dict[tuple[UUID, UUID, EdgeKind], Edge]:
    state = {e.key: e for e in sorted(existing, key=lambda e: rank_key(e, T0), reverse=True)}
    for edge in decision.remove:
        state.pop(edge.key, None)
    state.update((e.key, e) for e in decision.add)
    return state


def touched_by(incoming: list[Edge]) -> set[UUID]:
    return {end for e in incoming if e.kind is EdgeKind.SEMANTIC for end in (e.source, e.target)}


@given(graph=graphs())
def test_no_memory_a_write_touches_ends_with_more_semantic_edges_than_the_cap(
    graph: tuple[list[Edge], list[Edge], int],
) -> None:
    existing, incoming, cap = graph
    state = applied(existing, evict_over_cap(existing, incoming, cap, T0))
    counts = degrees(state.values())
    assert all(counts.get(node, 0) <= cap for node in touched_by(incoming))


@given(graph=graphs())
def test_an_edge_gives_way_only_to_cap_stronger_kept_edges_at_one_of_its_ends(
    graph: tuple[list[Edge], list[Edge], int],
) -> None:
    existing, incoming, cap = graph
    decision = evict_over_cap(existing, incoming, cap, T0)
    state = applied(existing, decision)
    touched = touched_by(incoming)
    evicted = list(decision.remove) + [e for e in incoming if e.key not in state]
    for edge in evicted:
        stronger_at = [
            sum(1 for kept in state.values()
                if end in (kept.source, kept.target) and rank_key(kept, T0) < rank_key(edge, T0))
            for end in (edge.source, edge.target) if end in touched
        ]
        assert any(count >= cap for count in stronger_at)


@given(graph=graphs())
def test_memories_the_write_does_not_touch_never_gain_edges(
    graph: tuple[list[Edge], list[Edge], int],
) -> None:
    existing, incoming, cap = graph
    before = degrees({e.key: e for e in existing}.values())
    after = degrees(applied(existing, evict_over_cap(existing, incoming, cap, T0)).values())
    for node in set(NODES) - touched_by(incoming):
        assert after.get(node, 0) <= before.get(node, 0)


@given(graph=graphs())
def test_deciding_again_on_the_result_changes_nothing(
    graph: tuple[list[Edge], list[Edge], int],
) -> None:
    existing, incoming, cap = graph
    first = evict_over_cap(existing, incoming, cap, T0)
    state = applied(existing, first)
    second = evict_over_cap(list(state.values()), incoming, cap, T0)
    assert second.remove == ()
    assert {e.key for e in second.add} == {e.key for e in first.add}


@given(graph=graphs(), data=st.data())
def test_the_decision_does_not_depend_on_input_order(
    graph: tuple[list[Edge], list[Edge], int], data: st.DataObject
) -> None:
    existing, incoming, cap = graph
    shuffled = evict_over_cap(
        data.draw(st.permutations(existing)), data.draw(st.permutations(incoming)), cap, T0
    )
    assert shuffled == evict_over_cap(existing, incoming, cap, T0)


@given(graph=graphs())
def test_nothing_gives_way_when_everything_fits(
    graph: tuple[list[Edge], list[Edge], int],
) -> None:
    existing, incoming, _ = graph
    decision = evict_over_cap(existing, incoming, len(existing) + len(incoming), T0)
    assert decision.remove == ()
    assert set(applied(existing, decision)) == {e.key for e in [*existing, *incoming]}


def test_an_old_memory_at_its_cap_drops_its_weakest_in_edge_for_a_stronger_new_one() -> None:
    old, a, b, c = NODES[:4]
    existing = [semantic(a, old, 0.5), semantic(b, old, 0.6), semantic(c, old, 0.7)]
    decision = evict_over_cap(existing, [semantic(NEW, old, 0.9)], 3, T0)
    assert [(e.source, e.weight) for e in decision.add] == [(NEW, 0.9)]
    assert [(e.source, e.weight) for e in decision.remove] == [(a, 0.5)]

    weaker = evict_over_cap(existing, [semantic(NEW, old, 0.4)], 3, T0)
    assert weaker == CapDecision(add=(), remove=())


def test_the_weakest_is_judged_by_strength_now_not_by_the_stored_weight() -> None:
    old, a, b = NODES[:3]
    faded = semantic(a, old, 0.9, used_days_ago=90.0)  # three half-lives: 0.1125 now
    existing = [faded, semantic(b, old, 0.5)]
    decision = evict_over_cap(existing, [semantic(NEW, old, 0.3)], 2, T0)
    assert decision.remove == (faded,)


def test_edges_of_other_kinds_are_neither_capped_nor_removed() -> None:
    old, a = NODES[:2]
    chain = Edge(a, old, EdgeKind.CHAIN, 1.0, T0, T0)
    incoming = [Edge(NEW, old, EdgeKind.CAUSAL, 0.7, T0, T0), semantic(NEW, old, 0.8)]
    decision = evict_over_cap([chain, semantic(a, old, 0.5)], incoming, 0, T0)
    assert [e.kind for e in decision.add] == [EdgeKind.CAUSAL]
    assert [e.kind for e in decision.remove] == [EdgeKind.SEMANTIC]


def test_a_negative_cap_is_refused() -> None:
    with pytest.raises(ValueError, match="cap"):
        evict_over_cap([], [], -1, T0)
