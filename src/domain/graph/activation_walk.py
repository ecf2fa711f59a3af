"""What one activation read fetches: each memory's strongest edges, bounded per hop."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import KW_ONLY, dataclass, field
from uuid import UUID

from memlane.domain.graph.activation import KIND_FACTOR
from memlane.domain.graph.edges import REPLACING_KINDS, Edge, EdgeKind

# The kinds activation spreads over; replacing kinds route instead (activation.Adjacency).
WALKED_KINDS = frozenset(k for k, f in KIND_FACTOR.items() if f > 0) - REPLACING_KINDS
REPLACEMENT_DEPTH = 3  # a statement replaced three times over is followed no further


@dataclass(frozen=True, slots=True)
class Walk:
    """The bounded neighbourhood of `seeds` (id -> activation in [0, 1]) that spreading
    activation walks: of each seed, its `fan_out` strongest edges of the walked kinds per
    direction (by stored weight); of the `frontier` memories they reach best (seed activation
    x stored weight), theirs too; and the replacing edges (REPLACING_KINDS) into every
    memory reached, every seed and every memory of `also`, followed through up to
    REPLACEMENT_DEPTH replacements.
    Bounded fan-out keeps a hub (a memory with hundreds of links) as cheap as any other."""

    seeds: Mapping[UUID, float]
    _: KW_ONLY  # the bounds and sets by name: two frozensets side by side are easy to swap
    fan_out: int
    frontier: int
    walked: frozenset[EdgeKind] = WALKED_KINDS
    also: frozenset[UUID] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if self.fan_out < 0 or self.frontier < 0:
            raise ValueError("fan_out and frontier must not be negative")


def walked(edges: Iterable[Edge], walk: Walk) -> list[Edge]:
    """The edges of `walk` among `edges` (all of one owner's): the reference for the SQL
    (graph_sql.NEIGHBOURHOOD), which reads the same from two indexes in one round trip.
    Equal weights may be cut in any order, there as here."""
    every = list(edges)
    spreading = [e for e in every if e.kind in walk.walked]

    def strongest(origins: Iterable[UUID]) -> list[tuple[UUID, Edge]]:
        found: list[tuple[UUID, Edge]] = []
        for origin in origins:
            for near in ("source", "target"):
                mine = [e for e in spreading if getattr(e, near) == origin]
                mine.sort(key=lambda e: -e.weight)
                found += [(origin, e) for e in mine[: walk.fan_out]]
        return found

    first = strongest(walk.seeds)
    best: dict[UUID, float] = {}
    for origin, edge in first:
        other = edge.target if edge.source == origin else edge.source
        if other not in walk.seeds:
            best[other] = max(best.get(other, 0.0), walk.seeds[origin] * edge.weight)
    frontier = sorted(best, key=lambda n: (-best[n], str(n)))[: walk.frontier]
    second = strongest(frontier)
    reached = {*walk.seeds, *walk.also, *frontier}
    reached |= {end for _, e in first + second for end in (e.source, e.target)}
    chosen = {e.key: e for _, e in first + second}
    into = set(reached)
    for _ in range(REPLACEMENT_DEPTH):
        newer = [e for e in every if e.kind in REPLACING_KINDS and e.target in into]
        chosen.update((e.key, e) for e in newer)
        into = {e.source for e in newer}
    return list(chosen.values())


def join_floor(
    matches: Iterable[float], places: int | None, slack: float, best: float | None = None
) -> float:
    """The least match a memory the graph reaches needs for any chance at one of `places`
    in a ranking by match / best match + at most `slack` (what relevance may add): the
    `places`-th best of the candidates' `matches` less `slack` x the best match the ranking
    may divide by (`best`, by default the best of `matches`). Below it, that many
    candidates outrank it whatever the relevances, so it is not worth reading. -inf when
    there is no such bound (no `places`, or fewer candidates)."""
    ordered = sorted(matches, reverse=True)
    if places is None or places < 1 or len(ordered) < places:
        return -math.inf
    return ordered[places - 1] - slack * (ordered[0] if best is None else max(best, ordered[0]))
