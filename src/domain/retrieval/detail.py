"""Level-of-detail context (RMG decision 9, Chvor's tiers): what a prompt block shows of each
memory within a hard token budget: focus in full, neighbours as abstracts, the rest counted."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from uuid import UUID

from memlane.domain.detail import Tier

RELATED_HEADER = "Related, in brief (ask to expand any of them):"


@dataclass(frozen=True, slots=True)
class FocusLine:
    """A focus memory's line at each tier (L2, L1, L0); `named`: the question names it."""

    id: UUID
    lines: dict[Tier, str]
    named: bool = False


@dataclass(frozen=True, slots=True)
class Layers:
    """What a block may show, best first within each layer: fixed lines (the profile, the
    preamble), focus memories, one-line hints (overlapping memories, one-hop neighbours)
    and count lines for what lies further out."""

    fixed: Sequence[str]
    focus: Sequence[FocusLine]
    hints: Sequence[tuple[UUID, str]] = ()
    counts: Sequence[str] = ()


@dataclass
class Fitted:
    """The lines chosen: each focus memory's tier, the hints and counts shown."""

    fixed: list[str] = field(default_factory=list)
    tiers: dict[UUID, Tier] = field(default_factory=dict)
    hints: list[UUID] = field(default_factory=list)
    counts: list[str] = field(default_factory=list)


def fit_levels(
    layers: Layers, cost: Callable[[str], int], overhead: int, token_budget: int
) -> Fitted:
    """The richest block whose tokens stay within `token_budget`, with `cost(line)` the
    tokens of a line and `overhead` those of any text at all (a tokenizer's special tokens).
    Every focus memory first gets its abstract (as many as fit, in order); then the named
    ones, then the others, are raised to full detail (L2), or the overview (L1) where L2
    does not fit; then hints, then counts, while they fit. Lines cost their tokens plus the
    line break's (none for the first)."""
    fitted = Fitted()
    used = overhead

    def fits(line: str) -> int | None:
        extra = cost(line) + (1 if used > overhead else 0)
        return extra if used + extra <= token_budget else None

    for line in layers.fixed:
        if (extra := fits(line)) is None:
            break
        fitted.fixed.append(line)
        used += extra
    for focus in layers.focus:
        if (extra := fits(focus.lines[Tier.L0])) is not None:
            fitted.tiers[focus.id] = Tier.L0
            used += extra
    for focus in sorted(layers.focus, key=lambda f: not f.named):  # stable: named first
        if focus.id not in fitted.tiers:
            continue
        held = cost(focus.lines[Tier.L0])
        for tier in (Tier.L2, Tier.L1):
            extra = cost(focus.lines[tier]) - held
            if used + extra <= token_budget:
                fitted.tiers[focus.id] = tier
                used += max(0, extra)
                break
    header = 0
    for memory_id, line in layers.hints:
        if not header and (header := fits(RELATED_HEADER) or 0) and fits(line) is not None:
            used += header
        if header and (extra := fits(line)) is not None:
            fitted.hints.append(memory_id)
            used += extra
    for line in layers.counts:
        if (extra := fits(line)) is not None:
            fitted.counts.append(line)
            used += extra
    return fitted


def count_line(memories: int, territory: str, low: float, high: float) -> str:
    """What lies further out, counted: "+12 more about project, importance 0.10-0.30"."""
    spread = f"{low:.2f}" if abs(high - low) < 0.005 else f"{low:.2f}-{high:.2f}"
    return f"- +{memories} more about {territory}, importance {spread}"


def counted(
    further: Sequence[tuple[str, float]], limit: int = 4
) -> list[str]:
    """Count lines for memories two or more hops out, as (territory, importance): one line
    per territory, the largest groups first, at most `limit` lines."""
    groups: dict[str, list[float]] = {}
    for territory, importance in further:
        groups.setdefault(territory, []).append(importance)
    ordered = sorted(groups.items(), key=lambda g: (-len(g[1]), g[0]))[:limit]
    return [count_line(len(v), k, min(v), max(v)) for k, v in ordered]
