"""Temporal edges: memories said close together in time, where no chain already joins them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import pairwise
from uuid import UUID

from memlane.domain.graph.edges import Edge, EdgeKind

# Two memories said within this of each other likely belong to one episode of the user's
# day (a burst of standalone notes, or a switch between two chats). Further apart, time
# order alone says nothing: the timeline is in created_at already and needs no edge.
TEMPORAL_WINDOW = timedelta(hours=2)


@dataclass(frozen=True, slots=True)
class Moment:
    """When a memory was said and in which conversation (None: a standalone memory)."""

    id: UUID
    created_at: datetime
    conversation_id: str | None = None


def temporal_weight(gap: timedelta, window: timedelta = TEMPORAL_WINDOW) -> float:
    """1 for memories said at once, falling linearly to 0 at `window`: the nearer in time,
    the likelier the same episode. Linear, so the weight reads back as a gap."""
    if window <= timedelta(0):
        raise ValueError(f"window must be positive, got {window}")
    if gap < timedelta(0):
        raise ValueError(f"gap must not be negative, got {gap}")
    return max(0.0, 1.0 - gap / window)


def _chained(earlier: Moment, later: Moment) -> bool:
    # Consecutive segments of one conversation already have chain edges (weight 1, never
    # fading); a temporal edge beside them would only count the same fact twice.
    return earlier.conversation_id is not None and earlier.conversation_id == later.conversation_id


def temporal_edges(
    moments: Iterable[Moment], now: datetime, window: timedelta = TEMPORAL_WINDOW
) -> list[Edge]:
    """earlier -> later edges along the owner's timeline: each memory from the one said just
    before it, when the gap is under `window` and the two are not consecutive segments of
    one conversation. The timeline is ordered by (created_at, id), so equal times and input
    order never change the result; each memory gets at most one edge in and one out. A
    memory listed twice alike counts once; twice with different times is refused."""
    timeline = sorted(set(moments), key=lambda m: (m.created_at, m.id))
    if len({m.id for m in timeline}) != len(timeline):
        raise ValueError("a memory is listed twice with different times or conversations")
    edges: list[Edge] = []
    for earlier, later in pairwise(timeline):
        if _chained(earlier, later):
            continue
        weight = temporal_weight(later.created_at - earlier.created_at, window)
        if weight > 0.0:
            edges.append(Edge(earlier.id, later.id, EdgeKind.TEMPORAL, weight, now, now))
    return edges


def temporal_edge_to(
    previous: Moment | None, new: Moment, now: datetime, window: timedelta = TEMPORAL_WINDOW
) -> Edge | None:
    """At write: the edge from the owner's memory said just before `new` (None: there is
    none), or None when they are chained, too far apart, or `previous` is not earlier."""
    if previous is None or (previous.created_at, previous.id) >= (new.created_at, new.id):
        return None
    found = temporal_edges([previous, new], now, window)
    return found[0] if found else None

