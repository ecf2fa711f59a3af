"""Per-type Ebbinghaus decay, idempotent: importance is a pure function of stored fields and now."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from memlane.domain.model import Heat, MemoryType

SECONDS_PER_DAY = 86_400.0
REINFORCEMENT_PER_ACCESS = 0.005
MAX_REINFORCEMENT = 0.08


@dataclass(frozen=True, slots=True)
class TypeDecay:
    """How fast a memory type fades and the importance it never drops below."""

    modifier: float
    floor: float


TYPE_DECAY: dict[MemoryType, TypeDecay] = {
    MemoryType.CORRECTION: TypeDecay(modifier=0.50, floor=0.35),
    MemoryType.FACT: TypeDecay(modifier=0.70, floor=0.30),
    MemoryType.PREFERENCE: TypeDecay(modifier=0.80, floor=0.25),
    MemoryType.TOOL_RESULT: TypeDecay(modifier=1.00, floor=0.10),
    MemoryType.CONTEXT: TypeDecay(modifier=1.00, floor=0.10),
}


def base_rate_per_day(decay_factor: float) -> float:
    """The daily decay rate implied by a per-day retention factor (0.95 -> 0.0513/day)."""
    if not 0.0 < decay_factor <= 1.0:
        raise ValueError(f"decay_factor must be in (0, 1], got {decay_factor}")
    return -math.log(decay_factor)


def days_between(earlier: datetime, later: datetime) -> float:
    """Elapsed days, never negative (a clock skew must not raise importance)."""
    return max(0.0, (later - earlier).total_seconds() / SECONDS_PER_DAY)


def raw_importance(heat: Heat, memory_type: MemoryType, now: datetime, base_rate: float) -> float:
    """Decayed importance before reinforcement and floor."""
    stability = 1.0 + math.log1p(heat.access_count)
    effective_rate = base_rate * TYPE_DECAY[memory_type].modifier / stability
    return heat.base_importance * math.exp(-effective_rate * days_between(heat.accessed_at, now))


def reinforcement(access_count: int) -> float:
    """A small bonus for memories that keep being used."""
    return min(access_count * REINFORCEMENT_PER_ACCESS, MAX_REINFORCEMENT)


def importance_at(heat: Heat, memory_type: MemoryType, now: datetime, base_rate: float) -> float:
    """Current importance: decayed, reinforced, floored by type, capped at 1."""
    value = raw_importance(heat, memory_type, now, base_rate) + reinforcement(heat.access_count)
    return min(1.0, max(value, TYPE_DECAY[memory_type].floor))


def accessed(heat: Heat, memory_type: MemoryType, now: datetime, base_rate: float) -> Heat:
    """The heat after a read at `now`: decay so far is banked, the clock restarts."""
    return Heat(
        base_importance=raw_importance(heat, memory_type, now, base_rate),
        access_count=heat.access_count + 1,
        accessed_at=max(now, heat.accessed_at),
    )
