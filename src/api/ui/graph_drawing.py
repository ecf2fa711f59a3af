"""A memory's neighbourhood laid out on rings for an SVG: the memory in the middle, hops out."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from uuid import UUID

from memlane.domain.graph import EdgeKind
from memlane.service.graph_reading import Neighbourhood

WIDTH, HEIGHT = 820, 560
CENTRE_X, CENTRE_Y = WIDTH / 2, HEIGHT / 2 - 10
RING_RADIUS = (0.0, 150.0, 250.0)
MAX_ON_RING = (1, 12, 24)  # more would overlap; the rest is counted, not drawn
LABEL_CHARS = 26
REPLACING = frozenset({EdgeKind.SUPERSEDES, EdgeKind.CONTRADICTION})


@dataclass(frozen=True, slots=True)
class DrawnNode:
    id: UUID
    x: float
    y: float
    hop: int
    label: str
    title: str
    memory_type: str
    superseded: bool
    href: str


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
class Drawing:
    width: int
    height: int
    nodes: tuple[DrawnNode, ...]
    edges: tuple[DrawnEdge, ...]
    kinds: tuple[str, ...]  # the edge kinds drawn, for the legend
    not_drawn: int


def _hops(centre: UUID, hood: Neighbourhood) -> dict[UUID, int]:
    """Breadth-first distance from the centre over edges in either direction."""
    links: dict[UUID, set[UUID]] = defaultdict(set)
    for edge in hood.edges:
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
    """Positions for the centre, up to 12 first-hop and 24 second-hop memories, and the edges
    among them. Targets of a supersedes or contradiction edge are marked superseded."""
    memories = {m.id: m for m in hood.nodes}
    hops = _hops(centre, hood)
    rings: dict[int, list[UUID]] = defaultdict(list)
    for node, hop in hops.items():
        if node in memories and hop < len(RING_RADIUS):
            rings[hop].append(node)
    angle: dict[UUID, float] = {centre: 0.0}
    placed: dict[UUID, tuple[float, float, int]] = {centre: (CENTRE_X, CENTRE_Y, 0)}
    for hop in (1, 2):
        ring = sorted(rings[hop], key=lambda n: (_parent_angle(n, hood, angle), str(n)))
        ring = ring[: MAX_ON_RING[hop]]
        for index, node in enumerate(ring):
            # Evenly round the ring, in the order of the parents' angles: a second-hop
            # memory lands near the first-hop memory it hangs from.
            theta = -math.pi / 2 + 2 * math.pi * index / len(ring)
            angle[node] = theta
            x = CENTRE_X + RING_RADIUS[hop] * math.cos(theta)
            y = CENTRE_Y + RING_RADIUS[hop] * math.sin(theta)
            placed[node] = (round(x, 1), round(y, 1), hop)
    superseded = {e.target for e in hood.edges if e.kind in REPLACING}
    nodes = tuple(
        DrawnNode(
            id=node, x=x, y=y, hop=hop,
            label=_short(memories[node].summary or memories[node].content, LABEL_CHARS),
            title=_short(memories[node].content, 300),
            memory_type=memories[node].memory_type.value,
            superseded=node in superseded, href=f"{base_href}/{node}",
        )
        for node, (x, y, hop) in placed.items()
    )
    edges = tuple(
        DrawnEdge(
            x1=placed[e.source][0], y1=placed[e.source][1],
            x2=placed[e.target][0], y2=placed[e.target][1],
            kind=e.kind.value, replacing=e.kind in REPLACING, weight=round(e.weight, 2),
        )
        for e in hood.edges
        if e.source in placed and e.target in placed
    )
    kinds = tuple(sorted({e.kind for e in edges}))
    return Drawing(WIDTH, HEIGHT, nodes, edges, kinds, len(memories) - len(placed))


def _parent_angle(node: UUID, hood: Neighbourhood, angle: dict[UUID, float]) -> float:
    """The angle of an already placed memory this one is linked to (0 when there is none)."""
    for edge in hood.edges:
        other = edge.target if edge.source == node else edge.source if edge.target == node else None
        if other is not None and other in angle:
            return angle[other]
    return 0.0
