"""Spreading activation over the memory graph (Chvor stage 4): bounded, deterministic, max-path."""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from memlane.domain.graph.edges import REPLACING_KINDS, Edge, EdgeKind, strength

HOP_DECAY = 0.5  # each hop halves what arrives: a neighbour of a neighbour is a weak hint
MAX_HOPS = 2  # DESIGN §9: beyond two hops associations are mostly noise
CHAIN_RADIUS = 2  # PMG: the two segments before and after an entry restore its discourse

# Edges of the REPLACING_KINDS (`EdgeKind.replaces`) do not spread, they route (see
# `Adjacency.newest`).

# How much of a link's strength carries activation. Temporal is damped: being said close in
# time says less about relevance than similar meaning, a shared name or a stated cause.
# Contradiction only spreads when a caller walks it instead of routing by it (Chvor flags
# contradicting memories; memlane's judge makes them replacements).
KIND_FACTOR: Mapping[EdgeKind, float] = {
    EdgeKind.CHAIN: 1.0,
    EdgeKind.SEMANTIC: 1.0,
    EdgeKind.CAUSAL: 1.0,
    EdgeKind.ENTITY: 1.0,
    EdgeKind.CONTRADICTION: 1.0,
    EdgeKind.NARRATIVE: 1.0,
    EdgeKind.TEMPORAL: 0.5,
}


@dataclass(frozen=True, slots=True)
class Link:
    """One step from a memory: to `neighbour` through an edge of `kind` at read-time strength."""

    neighbour: UUID
    kind: EdgeKind
    strength: float


@dataclass(frozen=True, slots=True)
class Adjacency:
    """The graph as activation walks it: links both ways, and who superseded whom."""

    links: Mapping[UUID, tuple[Link, ...]]
    superseded_by: Mapping[UUID, UUID]

    def newest(self, memory_id: UUID) -> UUID:
        """The memory that replaced this one, followed to the end (a cycle stops at the last
        memory before it repeats): activation meant for an outdated statement goes there."""
        seen = {memory_id}
        while (newer := self.superseded_by.get(memory_id)) is not None and newer not in seen:
            seen.add(newer)
            memory_id = newer
        return memory_id


def adjacency(
    edges: Iterable[Edge], now: datetime, replacing: Collection[EdgeKind] = REPLACING_KINDS
) -> Adjacency:
    """The walkable view of `edges` with their strengths at `now`.

    Edges of the `replacing` kinds (newer -> older) route; every other kind is walked both
    ways: an association holds from either end, and the direction stored (newer -> older)
    is when it was made, not what it means. Of several edges between two memories of one
    kind the strongest counts; of several memories replacing one, the strongest, then the
    latest-made."""
    links: dict[UUID, dict[tuple[UUID, EdgeKind], float]] = {}
    newer: dict[UUID, tuple[float, datetime, UUID]] = {}
    for edge in edges:
        value = strength(edge, now)
        if edge.kind in replacing:
            offer, current = (value, edge.created_at, edge.source), newer.get(edge.target)
            if value > 0 and (current is None or offer > current):
                newer[edge.target] = offer
            continue
        for here, there in ((edge.source, edge.target), (edge.target, edge.source)):
            mine = links.setdefault(here, {})
            mine[(there, edge.kind)] = max(value, mine.get((there, edge.kind), 0.0))
    return Adjacency(
        links={
            node: tuple(Link(n, k, s) for (n, k), s in sorted(steps.items()))
            for node, steps in links.items()
        },
        superseded_by={old: by[2] for old, by in newer.items()},
    )


@dataclass(frozen=True, slots=True)
class Reached:
    """How a memory was reached: its activation, after how many hops, from which memory and
    through which kind of edge (supersedes: routed to it from the memory it replaced, by a
    supersedes or a contradiction edge)."""

    activation: float
    hop: int
    parent: UUID
    via: EdgeKind


def _check_unit(name: str, value: float) -> None:
    if math.isnan(value) or not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be within [0, 1], got {value}")


def spread(
    seeds: Mapping[UUID, float],
    graph: Adjacency,
    *,
    hop_decay: float = HOP_DECAY,
    max_hops: int = MAX_HOPS,
    kind_factor: Mapping[EdgeKind, float] = KIND_FACTOR,
) -> dict[UUID, Reached]:
    """The memories reached from `seeds` (id -> activation in [0, 1]), seeds left out.

    A step carries activation x link strength x kind factor x hop decay; a memory keeps its
    best path (the maximum, never a sum: many weak paths do not outweigh one good one), and
    of equally good paths the one with fewest hops. A kind missing from `kind_factor` does
    not spread. A reached memory that was replaced passes its activation to the memory that
    replaced it, at the same hop, and is not reached itself; a replaced seed lights its
    replacement at hop 0. Values only shrink along a path, so the walk needs no visited set:
    each hop spreads only from memories whose activation rose at the hop before."""
    _check_unit("hop_decay", hop_decay)
    for kind, factor in kind_factor.items():
        _check_unit(f"kind factor of {kind.value}", factor)
    for seed, activation in seeds.items():
        _check_unit(f"activation of seed {seed}", activation)
    if max_hops < 0:
        raise ValueError(f"max_hops must not be negative, got {max_hops}")

    best: dict[UUID, float] = dict(seeds)
    reached: dict[UUID, Reached] = {}
    improved: set[UUID] = set(seeds)

    def offer(node: UUID, activation: float, hop: int, parent: UUID, via: EdgeKind) -> None:
        # Strictly better only: an equal value found later keeps the earlier, shorter path.
        if activation > best.get(node, 0.0):
            best[node] = activation
            reached[node] = Reached(activation, hop, parent, via)
            improved.add(node)

    for seed in sorted(seeds):
        offer(graph.newest(seed), seeds[seed], 0, seed, EdgeKind.SUPERSEDES)
    for hop in range(1, max_hops + 1):
        # A snapshot: what spreads at this hop is what arrived by the previous one.
        frontier = sorted((node, best[node]) for node in improved)
        improved = set()
        for node, activation in frontier:
            for link in graph.links.get(node, ()):
                value = activation * link.strength * kind_factor.get(link.kind, 0.0) * hop_decay
                target = graph.newest(link.neighbour)
                via = link.kind if target == link.neighbour else EdgeKind.SUPERSEDES
                if target != node:
                    offer(target, value, hop, node, via)
    return {node: how for node, how in reached.items() if node not in seeds}


def chain_window(position: int, count: int | None = None, radius: int = CHAIN_RADIUS) -> range:
    """Positions of the segments within `radius` of `position` in a conversation of `count`
    segments (None: unknown, only the start bounds it), the entry itself included: what PMG
    fetches around an entry so it arrives with its discourse."""
    if position < 0 or radius < 0 or (count is not None and not 0 <= position < count):
        raise ValueError(f"no window of radius {radius} at {position} of {count} segments")
    end = position + radius + 1 if count is None else min(count, position + radius + 1)
    return range(max(0, position - radius), end)
