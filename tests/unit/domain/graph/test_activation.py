"""Spreading activation: bounded by hops, the best path wins, supersession routes to the new."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from uuid import UUID

import pytest
from hypothesis import given, strategies as st

from memlane.domain.graph.activation import (
    HOP_DECAY,
    KIND_FACTOR,
    Adjacency,
    Reached,
    adjacency,
    chain_window,
    spread,
)
from memlane.domain.graph.edges import REPLACING_KINDS, Edge, EdgeKind, strength

T0 = datetime(2030, 1, 1, tzinfo=UTC)
NODES = [UUID(int=i + 1) for i in range(7)]
A, B, C, D, E, *_ = NODES
WALKED = [k for k in EdgeKind if k not in REPLACING_KINDS]


def edge(source: UUID, target: UUID, kind: EdgeKind = EdgeKind.CHAIN, weight: float = 1.0,
         used_days_ago: float = 0.0) -> Edge:
    at = T0 - timedelta(days=used_days_ago)
    return Edge(source, target, kind, weight, at, at)


@st.composite
def graphs(draw: st.DrawFn, supersedes: bool = True) -> list[Edge]:
    """Edges among seven memories; replacements only newer (higher) -> older, as in life."""
    pairs = st.tuples(st.sampled_from(NODES), st.sampled_from(NODES)).filter(lambda p: p[0] != p[1])
    walked = st.builds(
        lambda pair, kind, weight, days: edge(pair[0], pair[1], kind, weight, days),
        pairs, st.sampled_from(WALKED), st.floats(0.0, 1.0), st.sampled_from([0.0, 10.0, 200.0]),
    )
    edges = draw(st.lists(walked, max_size=14))
    if supersedes:
        newer = st.builds(
            lambda pair, kind: edge(max(pair), min(pair), kind),
            pairs, st.sampled_from(sorted(REPLACING_KINDS)),
        )
        edges += draw(st.lists(newer, max_size=3))
    return edges


seed_maps = st.dictionaries(st.sampled_from(NODES), st.floats(0.0, 1.0), min_size=1, max_size=3)


def best_walks(seeds: dict[UUID, float], graph: Adjacency, max_hops: int) -> dict[UUID, float]:
    """The oracle: every walk of at most `max_hops` steps, enumerated, its best product kept."""
    best: dict[UUID, float] = {}

    def walk(node: UUID, activation: float, hop: int) -> None:
        best[node] = max(best.get(node, 0.0), activation)
        if hop == max_hops:
            return
        for link in graph.links.get(node, ()):
            target = graph.newest(link.neighbour)
            if target != node:
                factor = link.strength * KIND_FACTOR[link.kind] * HOP_DECAY
                walk(target, activation * factor, hop + 1)

    for seed, activation in seeds.items():
        walk(seed, activation, 0)
        walk(graph.newest(seed), activation, 0)
    return {n: v for n, v in best.items() if n not in seeds and v > 0.0}


@given(edges=graphs(), seeds=seed_maps, max_hops=st.integers(0, 3))
def test_each_memory_gets_the_activation_of_its_best_walk_and_no_more(
    edges: list[Edge], seeds: dict[UUID, float], max_hops: int
) -> None:
    graph = adjacency(edges, T0)
    reached = spread(seeds, graph, max_hops=max_hops)
    expected = best_walks(seeds, graph, max_hops)
    assert set(reached) == set(expected)
    for node, how in reached.items():
        assert how.activation == pytest.approx(expected[node], rel=1e-9, abs=1e-300)


@given(edges=graphs(), seeds=seed_maps)
def test_activation_stays_in_the_graph_within_its_bounds(
    edges: list[Edge], seeds: dict[UUID, float]
) -> None:
    reached = spread(seeds, adjacency(edges, T0))
    in_graph = {end for e in edges for end in (e.source, e.target)}
    assert set(reached) <= in_graph - set(seeds)
    for how in reached.values():
        assert 0 <= how.hop <= 2
        assert 0.0 < how.activation <= max(seeds.values()) * HOP_DECAY**how.hop + 1e-12


@given(edges=graphs(), seeds=seed_maps)
def test_every_reached_memory_names_a_real_step_from_its_parent(
    edges: list[Edge], seeds: dict[UUID, float]
) -> None:
    graph = adjacency(edges, T0)
    for node, how in spread(seeds, graph).items():
        steps = graph.links.get(how.parent, ())
        if how.via is EdgeKind.SUPERSEDES:
            sources = [how.parent, *(link.neighbour for link in steps)]
            assert node in {graph.newest(s) for s in sources}
            assert graph.newest(node) == node
        else:
            assert any(link.neighbour == node and link.kind is how.via for link in steps)


@given(edges=graphs(), seeds=seed_maps)
def test_a_superseded_memory_is_never_reached_itself(
    edges: list[Edge], seeds: dict[UUID, float]
) -> None:
    graph = adjacency(edges, T0)
    assert not set(spread(seeds, graph)) & set(graph.superseded_by)


@given(edges=graphs(), seeds=seed_maps, data=st.data())
def test_the_result_does_not_depend_on_the_order_of_edges_or_seeds(
    edges: list[Edge], seeds: dict[UUID, float], data: st.DataObject
) -> None:
    shuffled_edges = data.draw(st.permutations(edges))
    shuffled_seeds = dict(data.draw(st.permutations(list(seeds.items()))))
    again = spread(shuffled_seeds, adjacency(shuffled_edges, T0))
    assert again == spread(seeds, adjacency(edges, T0))


@given(edges=graphs(), seeds=seed_maps, which=st.sampled_from(NODES), more=st.floats(0.0, 1.0))
def test_a_stronger_seed_never_lowers_any_activation(
    edges: list[Edge], seeds: dict[UUID, float], which: UUID, more: float
) -> None:
    graph = adjacency(edges, T0)
    raised = {**seeds, which: max(seeds.get(which, 0.0), more)}
    before, after = spread(seeds, graph), spread(raised, graph)
    for node, how in before.items():
        if node not in raised:
            assert after[node].activation >= how.activation


@given(edges=graphs(supersedes=False))
def test_links_are_walked_both_ways_at_their_strength_now(edges: list[Edge]) -> None:
    graph = adjacency(edges, T0)
    for e in edges:
        forward = [s.strength for s in graph.links[e.source] if (s.neighbour, s.kind) ==
                   (e.target, e.kind)]
        backward = [s.strength for s in graph.links[e.target] if (s.neighbour, s.kind) ==
                    (e.source, e.kind)]
        assert forward == backward and len(forward) == 1
        assert forward[0] >= strength(e, T0)


def test_a_chain_reaches_two_segments_each_way_halving_per_hop() -> None:
    graph = adjacency([edge(A, B), edge(B, C), edge(C, D), edge(E, A)], T0)
    reached = spread({A: 0.8}, graph)
    assert {n: (r.activation, r.hop) for n, r in reached.items()} == {
        B: (0.4, 1), E: (0.4, 1), C: (0.2, 2),
    }
    assert reached[C] == Reached(0.2, 2, B, EdgeKind.CHAIN)


def test_the_best_path_wins_over_the_sum_of_paths() -> None:
    graph = adjacency([
        edge(A, B, EdgeKind.SEMANTIC, 0.8), edge(A, C, EdgeKind.SEMANTIC, 0.6),
        edge(B, D, EdgeKind.SEMANTIC, 0.5), edge(C, D, EdgeKind.SEMANTIC, 0.5),
    ], T0)
    assert spread({A: 1.0}, graph)[D] == Reached(0.1, 2, B, EdgeKind.SEMANTIC)


def test_activation_reaching_an_outdated_memory_goes_to_what_replaced_it() -> None:
    # B said "I live in Berlin"; C, "I moved to Lisbon", superseded it.
    graph = adjacency([edge(A, B, EdgeKind.SEMANTIC, 0.8), edge(C, B, EdgeKind.SUPERSEDES)], T0)
    reached = spread({A: 1.0}, graph)
    assert reached == {C: Reached(0.4, 1, A, EdgeKind.SUPERSEDES)}


def test_a_superseded_seed_lights_its_replacement_and_chains_of_replacement_are_followed() -> None:
    graph = adjacency([edge(B, A, EdgeKind.SUPERSEDES), edge(C, B, EdgeKind.SUPERSEDES)], T0)
    assert graph.newest(A) == C
    assert spread({A: 0.7}, graph) == {C: Reached(0.7, 0, A, EdgeKind.SUPERSEDES)}


def test_a_contradiction_routes_like_a_supersession_unless_the_caller_walks_it() -> None:
    # B said "I love coffee"; C, "I don't drink coffee any more", negated it.
    edges = [edge(A, B, EdgeKind.SEMANTIC, 0.8), edge(C, B, EdgeKind.CONTRADICTION)]
    assert spread({A: 1.0}, adjacency(edges, T0)) == {
        C: Reached(0.4, 1, A, EdgeKind.SUPERSEDES),
    }
    walked = spread({A: 1.0}, adjacency(edges, T0, replacing={EdgeKind.SUPERSEDES}))
    assert walked == {
        B: Reached(0.4, 1, A, EdgeKind.SEMANTIC), C: Reached(0.2, 2, B, EdgeKind.CONTRADICTION),
    }


def test_of_two_memories_replacing_one_the_latest_made_takes_its_activation() -> None:
    earlier = edge(B, A, EdgeKind.SUPERSEDES, used_days_ago=1.0)
    later = edge(C, A, EdgeKind.SUPERSEDES)
    for edges in ([earlier, later], [later, earlier]):
        assert adjacency(edges, T0).superseded_by == {A: C}


def test_a_faded_link_carries_less_and_a_temporal_one_is_damped() -> None:
    graph = adjacency([
        edge(A, B, EdgeKind.SEMANTIC, 0.8, used_days_ago=30.0),  # one half-life
        edge(A, C, EdgeKind.TEMPORAL, 0.8),
    ], T0)
    reached = spread({A: 1.0}, graph, max_hops=1)
    assert reached[B].activation == pytest.approx(0.2)
    assert reached[C].activation == pytest.approx(0.8 * KIND_FACTOR[EdgeKind.TEMPORAL] * 0.5)


def test_a_kind_left_out_of_the_factors_does_not_spread() -> None:
    graph = adjacency([edge(A, B, EdgeKind.ENTITY, 0.9), edge(A, C)], T0)
    assert set(spread({A: 1.0}, graph, kind_factor={EdgeKind.CHAIN: 1.0})) == {C}


@pytest.mark.parametrize("bad", [
    {"seeds": {A: math.nan}}, {"seeds": {A: 1.5}}, {"hop_decay": 1.5},
    {"max_hops": -1}, {"kind_factor": {EdgeKind.CHAIN: -0.1}},
])
def test_activations_and_factors_outside_zero_to_one_are_refused(bad: dict[str, object]) -> None:
    arguments: dict[str, object] = {"seeds": {A: 1.0}, "graph": adjacency([], T0), **bad}
    with pytest.raises(ValueError):
        spread(**arguments)  # type: ignore[arg-type]


@given(position=st.integers(0, 50), extra=st.integers(1, 50), radius=st.integers(0, 4))
def test_the_chain_window_holds_the_entry_and_at_most_radius_neighbours_each_side(
    position: int, extra: int, radius: int
) -> None:
    count = position + extra
    window = chain_window(position, count, radius)
    assert position in window and window.step == 1
    assert window.start >= 0 and window.stop <= count
    assert position - window.start == min(radius, position)
    assert window.stop - 1 - position == min(radius, count - 1 - position)


def test_the_chain_window_is_two_each_way_by_default_and_refuses_a_position_outside() -> None:
    assert list(chain_window(0)) == [0, 1, 2]
    assert list(chain_window(5, 7)) == [3, 4, 5, 6]
    with pytest.raises(ValueError):
        chain_window(7, 7)
