"""Per-memory cap on semantic edges: which weakest links give way when a write adds more."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from memlane.domain.graph import Edge, EdgeKind, strength

EdgeKey = tuple[UUID, UUID, EdgeKind]


@dataclass(frozen=True, slots=True)
class CapDecision:
    """What storing new edges does under the cap, as two sets an adapter applies in one
    statement each: `add` the incoming edges to upsert, `remove` the stored edges to delete.
    An incoming edge in neither set is one that lost: it is simply not stored."""

    add: tuple[Edge, ...]
    remove: tuple[Edge, ...]


def rank_key(edge: Edge, now: datetime) -> tuple[float, datetime, UUID, UUID]:
    """Strongest first: strength at `now` (stored weights of edges last used at different
    times are not comparable), then the older-made (it has proved itself longer), then ids so
    the order is total and Python and SQL rank alike (UUIDs compare as their bytes)."""
    return (-strength(edge, now), edge.created_at, edge.source, edge.target)


def _stronger(current: Edge | None, offered: Edge, now: datetime) -> bool:
    # Whole rank keys, so which of two versions of one edge wins never depends on input
    # order; the offered one wins an exact tie, so offering it again changes nothing.
    return current is None or rank_key(offered, now) <= rank_key(current, now)


def evict_over_cap(
    existing: Iterable[Edge], incoming: Iterable[Edge], cap: int, now: datetime
) -> CapDecision:
    """Keep at most `cap` semantic edges at every memory the incoming edges touch, counting
    both ends: the new memory's out-edges and each older memory's in-edges alike.

    `existing` must hold every stored semantic edge touching the ends of the incoming ones
    (what `edges_of(ends, [semantic])` returns); edges of other kinds are not capped: incoming
    ones are added as they are, stored ones never removed. An incoming edge with the key of a
    stored one replaces it (an upsert) when it ranks no lower, else it is dropped.

    Candidates are taken strongest first; one is kept while each touched end still has room.
    So an edge gives way only to `cap` stronger kept edges at one of its ends, never to
    edges that were themselves evicted, and deciding again on the result changes nothing.
    Memories the write does not touch are not counted: their degree cannot grow."""
    if cap < 0:
        raise ValueError(f"cap must not be negative, got {cap}")
    stored: dict[EdgeKey, Edge] = {}
    for edge in existing:
        if edge.kind is EdgeKind.SEMANTIC and _stronger(stored.get(edge.key), edge, now):
            stored[edge.key] = edge
    offered: dict[EdgeKey, Edge] = {}
    passing: dict[EdgeKey, Edge] = {}
    for edge in incoming:
        pool = offered if edge.kind is EdgeKind.SEMANTIC else passing
        if _stronger(pool.get(edge.key), edge, now):
            pool[edge.key] = edge

    touched = {end for edge in offered.values() for end in (edge.source, edge.target)}
    candidates = dict(stored)
    replacing: set[EdgeKey] = set()
    for key, edge in offered.items():
        if _stronger(stored.get(key), edge, now):
            candidates[key] = edge
            replacing.add(key)

    room = dict.fromkeys(touched, cap)
    kept: set[EdgeKey] = set()
    for edge in sorted(candidates.values(), key=lambda e: rank_key(e, now)):
        ends = [end for end in (edge.source, edge.target) if end in room]
        if all(room[end] > 0 for end in ends):
            kept.add(edge.key)
            for end in ends:
                room[end] -= 1

    add = [candidates[k] for k in replacing if k in kept] + list(passing.values())
    remove = [stored[k] for k in stored if k not in kept]
    return CapDecision(
        add=tuple(sorted(add, key=lambda e: (e.kind.value, *rank_key(e, now)))),
        remove=tuple(sorted(remove, key=lambda e: rank_key(e, now))),
    )


def degrees(edges: Iterable[Edge]) -> dict[UUID, int]:
    """How many semantic edges touch each memory, counting both ends (what the cap bounds)."""
    counts: dict[UUID, int] = {}
    for edge in edges:
        if edge.kind is EdgeKind.SEMANTIC:
            for end in (edge.source, edge.target):
                counts[end] = counts.get(end, 0) + 1
    return counts
