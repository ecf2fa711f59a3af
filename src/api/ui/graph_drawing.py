"""A memory's neighbourhood laid out on rings for an SVG: the memory in the middle, hops out."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from uuid import UUID

from memlane.service.graph import Neighbourhood

WIDTH = 820
CENTRE_X, CENTRE_Y = WIDTH / 2, 280.0  # the viewBox keeps only the rows in use
RING_RADIUS = (0.0, 150.0, 250.0)
MAX_ON_RING = (1, 12, 24)  # more would overlap; the rest is counted, not drawn
LABEL_CHARS = 26
MAX_SECTOR = 2.4  # radians a first-hop memory's children spread over, at most
LEGEND_ROW = 16
SKEW = 0.12  # radians: a child never sits exactly behind its parent (over its label)


@dataclass(frozen=True, slots=True)
class DrawnNode:
    id: UUID
    x: float
    y: float
    hop: int
    label: str
    title: str
    memory_type: str  # "entity" for an entity node (a CSS class either way)
    superseded: bool
    href: str | None  # an entity has no page of its own
    label_y: float  # above a node in the upper half, below otherwise: edges leave outwards
    stamp_y: float  # where "superseded" goes, beyond the label


@dataclass(frozen=True, slots=True)
class DrawnEdge:
    x1: float
    y1: float
    x2: float
    y2: float
    kind: str
    replacing: bool  # source (newer) replaces target (older): drawn as an arrow
    weight: float


@dataclass(frozen=True, slots=True)
class LegendRow:
    kind: str
    replacing: bool  # drawn as an arrow, like the edges of its kind


@dataclass(frozen=True, slots=True)
class Drawing:
    """The SVG's geometry: its viewBox runs from `top` over `height` (the rows used)."""

    width: int
    top: float
    height: float
    nodes: tuple[DrawnNode, ...]
    edges: tuple[DrawnEdge, ...]
    legend: tuple[LegendRow, ...]  # the edge kinds drawn
    not_drawn: int


def _hops(centre: UUID, hood: Neighbourhood) -> dict[UUID, int]:
    """Breadth-first distance from the centre over edges in either direction."""
    links: dict[UUID, set[UUID]] = defaultdict(set)
    for edge in hood.edges + hood.mentions:
        links[edge.source].add(edge.target)
        links[edge.target].add(edge.source)
    hops, frontier = {centre: 0}, [centre]
    while frontier:
        reached = []
        for node in frontier:
            for other in sorted(links[node] - hops.keys()):
                hops[other] = hops[node] + 1
                reached.append(other)
        frontier = reached
    return hops


def _short(text: str, chars: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= chars else flat[: chars - 1] + "…"


def draw_neighbourhood(centre: UUID, hood: Neighbourhood, base_href: str) -> Drawing:
    """Positions for the centre, up to 12 first-hop and 24 second-hop nodes (memories, and
    the entities they name), and the edges among them. Targets of a supersedes or
    contradiction edge, and memories marked so, are marked superseded."""
    memories = {m.id: m for m in hood.nodes}
    entities = {n.id: n for n in hood.entities}
    hops = _hops(centre, hood)
    rings: dict[int, list[UUID]] = defaultdict(list)
    for node, hop in hops.items():
        if (node in memories or node in entities) and hop < len(RING_RADIUS):
            rings[hop].append(node)
    angle: dict[UUID, float] = {}
    placed: dict[UUID, tuple[float, float, int]] = {centre: (CENTRE_X, CENTRE_Y, 0)}
    first = sorted(rings[1], key=str)[: MAX_ON_RING[1]]
    for index, node in enumerate(first):  # evenly round the first ring, from the top
        angle[node] = -math.pi / 2 + 2 * math.pi * index / len(first)
    # Each second-hop memory hangs in the sector of a first-hop one it links to, so edges
    # run outwards and never back across the centre.
    children: dict[UUID, list[UUID]] = defaultdict(list)
    for node in sorted(rings[2], key=str)[: MAX_ON_RING[2]]:
        parent = _parent(node, hood, angle)
        if parent is not None:
            children[parent].append(node)
    sector = min(2 * math.pi / max(1, len(first)), MAX_SECTOR)
    for parent, hanging in children.items():
        for index, node in enumerate(hanging):
            offset = (index + 1) / (len(hanging) + 1) - 0.5
            angle[node] = angle[parent] + sector * offset + SKEW
    for node, theta in angle.items():
        hop = 1 if node in first else 2
        x = CENTRE_X + RING_RADIUS[hop] * math.cos(theta)
        y = CENTRE_Y + RING_RADIUS[hop] * math.sin(theta)
        placed[node] = (round(x, 1), round(y, 1), hop)
    superseded = {e.target for e in hood.edges if e.kind.replaces} | {
        m.id for m in hood.nodes if not m.current}
    nodes = tuple(
        _memory_node(hood, node, x, y, hop, node in superseded, base_href)
        if node in memories else
        DrawnNode(
            id=node, x=x, y=y, hop=hop, label=_short(entities[node].label, LABEL_CHARS),
            title=f"{entities[node].label} ({entities[node].kind})", memory_type="entity",
            superseded=False, href=None, **_label_places(y, hop),
        )
        for node, (x, y, hop) in placed.items()
    )
    edges = tuple(
        DrawnEdge(
            x1=placed[e.source][0], y1=placed[e.source][1],
            x2=placed[e.target][0], y2=placed[e.target][1],
            kind=e.kind.value, replacing=e.kind.replaces, weight=round(e.weight, 2),
        )
        for e in hood.edges + hood.mentions
        if e.source in placed and e.target in placed
    )
    legend = tuple(LegendRow(kind, replacing) for kind, replacing in sorted(
        {(e.kind, e.replacing) for e in edges}))
    # Only the rows in use: the top of the highest stamp or label to the lowest, then the legend.
    top = min(min(n.y - 20, n.label_y - 14, n.stamp_y - 14) for n in nodes) - 6
    bottom = max(max(n.y + 20, n.label_y + 6, n.stamp_y + 6) for n in nodes)
    height = bottom - top + LEGEND_ROW * len(legend) + 16
    return Drawing(WIDTH, round(top, 1), round(height, 1), nodes, edges, legend,
                   len(memories) + len(entities) - len(placed))


def _memory_node(
    hood: Neighbourhood, node: UUID, x: float, y: float, hop: int, superseded: bool,
    base_href: str,
) -> DrawnNode:
    memory = next(m for m in hood.nodes if m.id == node)
    return DrawnNode(
        id=node, x=x, y=y, hop=hop, label=_short(memory.summary or memory.content, LABEL_CHARS),
        title=_short(memory.content, 300), memory_type=memory.memory_type.value,
        superseded=superseded, href=f"{base_href}/{node}", **_label_places(y, hop),
    )


def _label_places(y: float, hop: int) -> dict[str, float]:
    radius = 16 if hop == 0 else 11
    if hop > 0 and y < CENTRE_Y:
        return {"label_y": y - radius - 6, "stamp_y": y - radius - 20}
    return {"label_y": y + radius + 14, "stamp_y": y + radius + 27}


def _parent(node: UUID, hood: Neighbourhood, angle: dict[UUID, float]) -> UUID | None:
    """A first-hop memory this one links to (None when none of them was drawn)."""
    for edge in hood.edges + hood.mentions:
        other = edge.target if edge.source == node else edge.source if edge.target == node else None
        if other is not None and other in angle:
            return other
    return None
