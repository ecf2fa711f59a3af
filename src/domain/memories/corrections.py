"""What a correction is: a statement that replaced another, typed and weighted so it outlasts it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from memlane.domain.memories.decay import importance_at
from memlane.domain.model import Heat, MemoryType


@dataclass(frozen=True, slots=True)
class Replacement:
    """`new` replaced what `old` said at `at` (the older memory's valid_until). `new` is None
    when a fact stated directly, not a memory, replaced the one read from `old`."""

    old: UUID
    new: UUID | None
    at: datetime


@dataclass(frozen=True, slots=True)
class Corrected:
    """A memory retyped as a correction after it was stored: its new heat and importance."""

    memory_id: UUID
    heat: Heat
    importance: float


def correction_heat(heat: Heat, replaced: Iterable[Heat]) -> Heat:
    """The heat of a statement that replaced others: it starts at no less than the base
    importance of what it replaced (a move stated in passing must not fade before the home
    it replaced did). Its clock and accesses are its own."""
    base = max((h.base_importance for h in replaced), default=heat.base_importance)
    if base <= heat.base_importance:
        return heat
    return Heat(min(1.0, base), heat.access_count, heat.accessed_at)


def as_correction(
    memory_id: UUID, heat: Heat, replaced: Sequence[Heat], now: datetime, base_rate: float
) -> Corrected:
    """A stored memory found (after its facts were read) to replace others, as a correction:
    DESIGN §2's cue order typed it first; replacing a fact makes it a correction."""
    raised = correction_heat(heat, replaced)
    return Corrected(
        memory_id, raised, importance_at(raised, MemoryType.CORRECTION, now, base_rate)
    )


def newest_per_old(replacements: Iterable[Replacement]) -> list[Replacement]:
    """One replacement per older memory (the last given wins), none of a memory by itself."""
    kept: dict[UUID, Replacement] = {}
    for replacement in replacements:
        if replacement.new != replacement.old:
            kept[replacement.old] = replacement
    return list(kept.values())
