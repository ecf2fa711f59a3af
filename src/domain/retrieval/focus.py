"""Session focus (RMG decisions 5-8): a conversation's most used memories, what resumes
them in a new conversation, and the boost a memory gets for being close to them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from uuid import UUID

# Each hop from the focus halves the boost: a focus memory gets `weight`, its neighbour half.
HOP_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class FocusQuery:
    """What a focus read looks at: the focus's `size`, `hops` of edges around it, and for a
    conversation without focus yet, the `recent` latest other conversations whose focus may
    resume, at cosine `resume_similarity` or more to the question (None: no resume)."""

    size: int = 5
    hops: int = 2
    recent: int = 20
    resume_similarity: float | None = None


@dataclass(frozen=True, slots=True)
class FocusView:
    """The focus (best first), whether it was resumed from another conversation, and the
    hops from it of the memories asked about (0 for a focus memory; absent: too far)."""

    focus: tuple[UUID, ...] = ()
    resumed: bool = False
    hops: Mapping[UUID, int] = field(default_factory=dict)


def focus_factor(hops: int | None, weight: float) -> float:
    """What a memory's match is multiplied by for its distance from the focus: 1 + weight
    for a focus memory, halved per hop, 1 when out of reach (None) or the weight is 0. Read
    time only: nothing stored changes (stored importance is a function of stored fields)."""
    if hops is None or weight <= 0 or hops < 0:
        return 1.0
    return 1.0 + weight * HOP_SHARE**hops


def resumed_match(best_match: float, share: float, rank: int) -> float:
    """The match a resumed focus memory enters a new conversation with: `share` of the best
    match, the focus's order kept by a small step per rank."""
    return best_match * share * (1.0 - 0.01 * rank)
