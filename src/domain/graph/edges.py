"""Edges between memories: kinds, strength that fades from its last use, and use itself."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from uuid import UUID


class EdgeKind(StrEnum):
    CHAIN = "chain"  # consecutive segments of a conversation (derived from its order)
    SEMANTIC = "semantic"  # similar meaning, made at write from the nearest-neighbour probe
    TEMPORAL = "temporal"  # one thing happened before the other
    CAUSAL = "causal"  # "because", "so", "deshalb" between adjacent segments
    ENTITY = "entity"  # both mention the same person, place, organisation, product or pet
    CONTRADICTION = "contradiction"  # the newer negates the older
    SUPERSEDES = "supersedes"  # the newer replaces what the older said
    NARRATIVE = "narrative"  # parts of one story (consolidation, or stated through the API)

    @property
    def replaces(self) -> bool:
        """Whether the source (newer) replaces the target (older): such an edge routes
        activation to the newer memory instead of spreading it, the older one is shown as
        superseded (API, inspector), and the edge is drawn as an arrow."""
        return self in REPLACING_KINDS


# The kinds by which a newer statement replaces an older one (a new value, or a negation, as
# the supersession judge decides): the one list that activation, the SQL of the graph
# adapter, the API and the inspector read.
REPLACING_KINDS: frozenset[EdgeKind] = frozenset({EdgeKind.SUPERSEDES, EdgeKind.CONTRADICTION})

# Half-life of an edge's strength since it was last used, in days; None: it does not fade.
# What a conversation said in order, and what replaced what, stay true however long unused;
# associations (similarity, shared names) weaken like the memories they join.
HALF_LIFE_DAYS: dict[EdgeKind, float | None] = {
    EdgeKind.CHAIN: None,
    EdgeKind.SUPERSEDES: None,
    EdgeKind.CONTRADICTION: None,
    EdgeKind.SEMANTIC: 30.0,
    EdgeKind.ENTITY: 60.0,
    EdgeKind.CAUSAL: 90.0,
    EdgeKind.TEMPORAL: 90.0,
    EdgeKind.NARRATIVE: 180.0,
}
USE_BOOST = 0.15  # Chvor: each use strengthens an edge by this much, capped at 1
SECONDS_PER_DAY = 86_400.0


def check_weight(weight: float) -> float:
    """A weight in [0, 1]; NaN and anything outside are refused."""
    if isinstance(weight, bool) or not isinstance(weight, int | float) or math.isnan(weight):
        raise ValueError(f"an edge weight must be a number in [0, 1], got {weight!r}")
    if not 0.0 <= weight <= 1.0:
        raise ValueError(f"an edge weight must be within [0, 1], got {weight}")
    return float(weight)


@dataclass(frozen=True, slots=True)
class Edge:
    """source -> target of one owner. `weight` is the strength at `activated_at`."""

    source: UUID
    target: UUID
    kind: EdgeKind
    weight: float
    created_at: datetime
    activated_at: datetime

    def __post_init__(self) -> None:
        check_weight(self.weight)
        if self.source == self.target:
            raise ValueError("an edge joins two different memories")

    @property
    def key(self) -> tuple[UUID, UUID, EdgeKind]:
        return (self.source, self.target, self.kind)


def strength(edge: Edge, now: datetime) -> float:
    """The edge's strength at `now`: its weight halved every half-life since last use.

    A pure function of stored fields and `now`, like importance: computing it twice, or at
    t1 and then again at t2, never compounds."""
    half_life = HALF_LIFE_DAYS[edge.kind]
    days = (now - edge.activated_at).total_seconds() / SECONDS_PER_DAY
    if half_life is None or days <= 0:
        return edge.weight
    return edge.weight * 0.5 ** (days / half_life)


def used(edge: Edge, now: datetime, boost: float = USE_BOOST) -> Edge:
    """The edge after a use at `now`: its current strength plus `boost`, capped at 1."""
    if now <= edge.activated_at:
        return replace(edge, weight=min(1.0, edge.weight + boost))
    return replace(edge, weight=min(1.0, strength(edge, now) + boost), activated_at=now)
