"""The inspector's server-drawn SVG geometry: the neighbourhood rings and the decay plots."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4

from hypothesis import given, strategies as st

from memlane.api.ui import ui_template_config
from memlane.api.ui.graph_drawing import (
    CENTRE_X,
    CENTRE_Y,
    MAX_ON_RING,
    WIDTH,
    LegendRow,
    draw_neighbourhood,
)
from memlane.api.ui.plots import (
    BOTTOM,
    CURVE_DAYS,
    HEIGHT as PLOT_HEIGHT,
    TOP,
    count_bars,
    forgetting_curves,
    waiting_for_embedding,
)
from memlane.domain.graph.edges import Edge, EdgeKind
from memlane.domain.memories.decay import TYPE_DECAY
from memlane.domain.model import Heat, Memory, MemoryStats, MemoryType, Owner
from memlane.service.graph.reading import EntityNode, Neighbourhood

NOW = datetime(2026, 5, 1, tzinfo=UTC)
OWNER = Owner("t", "u")


def memory(text: str, kind: MemoryType = MemoryType.FACT, age_days: float = 0.0) -> Memory:
    at = NOW - timedelta(days=age_days)
    return Memory(uuid4(), OWNER, kind, text, text, 0.5, Heat(0.5, 0, at), at, at)


def edge(source: Memory, target: Memory, kind: EdgeKind = EdgeKind.SEMANTIC) -> Edge:
    return Edge(source.id, target.id, kind, 0.8, NOW, NOW)


def test_a_superseded_memory_is_marked_and_its_edge_drawn_as_replacing() -> None:
    berlin, lisbon, porto = memory("I live in Berlin"), memory("I moved to Lisbon"), memory("Porto")
    hood = Neighbourhood(
        (berlin, lisbon, porto),
        (edge(lisbon, berlin, EdgeKind.SUPERSEDES), edge(lisbon, porto)),
    )
    drawing = draw_neighbourhood(lisbon.id, hood, "/ui/memories")
    nodes = {n.id: n for n in drawing.nodes}
    assert nodes[lisbon.id].hop == 0 and (nodes[lisbon.id].x, nodes[lisbon.id].y) == (
        CENTRE_X, CENTRE_Y)
    assert nodes[berlin.id].superseded and not nodes[porto.id].superseded
    assert {(e.kind, e.replacing) for e in drawing.edges} == {("supersedes", True),
                                                             ("semantic", False)}
    assert nodes[porto.id].href == f"/ui/memories/{porto.id}"
    assert drawing.legend == (LegendRow("semantic", replacing=False),
                              LegendRow("supersedes", replacing=True))


def test_the_svg_draws_replacing_kinds_as_arrows_in_the_edges_and_the_legend() -> None:
    old, new, near = memory("I am vegetarian"), memory("I eat fish now"), memory("Fish")
    hood = Neighbourhood((old, new, near), (edge(new, old, EdgeKind.CONTRADICTION),
                                            edge(new, near)))
    drawing = draw_neighbourhood(new.id, hood, "/ui/memories")
    environment = ui_template_config().instance.engine
    svg = str(environment.get_template("_graph.svg").module.graph_svg(drawing))
    assert svg.count('marker-end="url(#arrow)"') == 1
    assert 'class="edge edge-contradiction replacing" stroke-width="3"' in svg
    assert 'class="edge edge-semantic" stroke-width="3"' in svg


def test_the_entities_a_memory_names_are_drawn_beside_it_without_a_page() -> None:
    ravi_job, other = memory("Ravi works at Siemens"), memory("Ravi plays chess")
    ravi, siemens = EntityNode(uuid4(), "Ravi", "person", 0.9), EntityNode(
        uuid4(), "Siemens", "organisation", 0.6)
    mentions = tuple(
        Edge(m.id, n.id, EdgeKind.ENTITY, 0.7, NOW, NOW)
        for m, n in ((ravi_job, ravi), (ravi_job, siemens), (other, ravi))
    )
    hood = Neighbourhood((ravi_job, other), (edge(ravi_job, other),), (ravi, siemens), mentions)
    drawing = draw_neighbourhood(ravi_job.id, hood, "/ui/memories")
    nodes = {n.id: n for n in drawing.nodes}
    assert nodes[ravi.id].hop == 1 and nodes[ravi.id].memory_type == "entity"
    assert nodes[ravi.id].label == "Ravi" and nodes[ravi.id].title == "Ravi (person)"
    assert nodes[siemens.id].href is None and nodes[other.id].href == f"/ui/memories/{other.id}"
    assert [row.kind for row in drawing.legend] == ["entity", "semantic"]
    assert len(drawing.edges) == 4


@given(first=st.integers(0, 30), second=st.integers(0, 40))
def test_every_drawn_memory_lies_on_the_canvas_and_the_rest_is_counted(
    first: int, second: int
) -> None:
    centre = memory("centre")
    ring1 = [memory(f"one {i}") for i in range(first)]
    ring2 = [memory(f"two {i}") for i in range(second)] if ring1 else []
    edges = [edge(centre, m) for m in ring1]
    edges += [edge(ring1[i % len(ring1)], m, EdgeKind.ENTITY) for i, m in enumerate(ring2)]
    drawing = draw_neighbourhood(centre.id, Neighbourhood((centre, *ring1, *ring2),
                                                          tuple(edges)), "/m")
    by_hop = {hop: [n for n in drawing.nodes if n.hop == hop] for hop in (0, 1, 2)}
    assert len(by_hop[0]) == 1 and len(by_hop[1]) == min(first, MAX_ON_RING[1])
    assert len(by_hop[2]) <= min(len(ring2), MAX_ON_RING[2])
    assert drawing.not_drawn == 1 + first + len(ring2) - len(drawing.nodes)
    bottom = drawing.top + drawing.height
    assert all(0 <= n.x <= WIDTH and drawing.top < n.label_y < bottom for n in drawing.nodes)
    assert all(drawing.top < n.stamp_y < bottom for n in drawing.nodes if n.superseded)
    placed: set[UUID] = {n.id for n in drawing.nodes}
    parents = {e.target: e.source for e in edges if e.kind is EdgeKind.ENTITY}
    assert all(parents[n.id] in placed for n in by_hop[2])  # hung from a drawn parent
    assert len(drawing.edges) == sum(1 for e in edges if {e.source, e.target} <= placed)


def _ys(points: str) -> list[float]:
    return [float(pair.split(",")[1]) for pair in points.split()]


def test_each_curve_falls_from_full_importance_to_its_types_floor() -> None:
    plot = forgetting_curves(base_rate=0.0513, now=NOW)
    assert len(plot.curves) == len(MemoryType)
    for curve in plot.curves:
        ys = _ys(curve.points)
        assert ys[0] == TOP  # importance 1 at day 0
        assert all(a <= b for a, b in itertools.pairwise(ys))  # never rises
        floor = TYPE_DECAY[MemoryType(curve.memory_type)].floor
        assert curve.floor_y == ys[-1] == round(TOP + (PLOT_HEIGHT - TOP - BOTTOM) * (1 - floor), 1)


def test_a_memory_older_than_the_axis_sits_on_its_right_edge() -> None:
    old, new = memory("old", age_days=CURVE_DAYS * 3), memory("new", age_days=0)
    plot = forgetting_curves(base_rate=0.0513, now=NOW, memories=[old, new])
    assert [d.x for d in plot.dots] == [plot.right_edge, plot.left]


def test_the_embedding_gap_is_what_the_total_has_beyond_the_embedded() -> None:
    stats = MemoryStats(total=7, by_type={"fact": 5, "context": 2}, with_embeddings=4,
                        avg_importance=0.4)
    assert waiting_for_embedding(stats) == 3
    bars = {b.label: b for b in count_bars(stats).bars}
    assert bars["waiting for an embedding"].count == 3 and bars["fact"].count == 5
    assert bars["fact"].width > bars["waiting for an embedding"].width > bars["preference"].width
