"""The plain prompt block (whole lines within a character budget) by the rule of the
level-of-detail one (RMG decision 5): a memory the question names, or one that answers it,
is shown whole, the named first; one that merely overlaps (reached through a link or next
to a hit) is a hint line, its abstract under the related header."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from uuid import UUID

from memlane.domain.model import ContextRole, MemoryContext
from memlane.domain.retrieval.context import (
    PREAMBLE,
    ContextOrder,
    by_type_priority,
    in_order,
    render_line,
    render_timeline_line,
)
from memlane.domain.retrieval.detail import RELATED_HEADER

# How a memory was found when it only overlaps the question: shown as a hint unless named.
OVERLAP_ROLES = frozenset({ContextRole.CHAIN, ContextRole.SEMANTIC, ContextRole.ACTIVATION})


@dataclass(frozen=True, slots=True)
class PlainBlock:
    """What fits: memories shown whole (priority order) and hint lines (memory, line)."""

    whole: list[MemoryContext] = field(default_factory=list)
    hints: list[tuple[MemoryContext, str]] = field(default_factory=list)


def is_hint(memory: MemoryContext, named: Collection[UUID]) -> bool:
    """Whether a memory is a hint line rather than in full: it only overlaps the question,
    and the question does not name it."""
    return memory.role in OVERLAP_ROLES and memory.id not in named


def fit_plain(
    memories: Sequence[MemoryContext], abstracts: Mapping[UUID, str],
    named: Collection[UUID], char_budget: int, order: ContextOrder = ContextOrder.PRIORITY,
) -> PlainBlock:
    """Whole lines first (the named ones, then by type priority), then hint lines (a
    memory's abstract), each while it fits after the preamble (and the related header
    before the first hint). A hint without an abstract is shown whole."""
    line = render_timeline_line if order is ContextOrder.TIMELINE else render_line
    hinted = [m for m in memories if is_hint(m, named) and m.id in abstracts]
    kept = {m.id for m in hinted}
    whole_first = sorted(
        by_type_priority([m for m in memories if m.id not in kept]), key=lambda m: m.id not in named
    )
    used = len(PREAMBLE)
    block = PlainBlock()
    for memory in whole_first:
        cost = 1 + len(line(memory))
        if used + cost <= char_budget:
            block.whole.append(memory)
            used += cost
    for memory in by_type_priority(hinted):
        text = line(replace(memory, content=abstracts[memory.id]))
        cost = 1 + len(text) + (0 if block.hints else 1 + len(RELATED_HEADER))
        if used + cost <= char_budget:
            block.hints.append((memory, text))
            used += cost
    return block


def render_plain(block: PlainBlock, order: ContextOrder = ContextOrder.PRIORITY) -> str:
    """The block: preamble, whole lines in the order asked, then the hints; "" when empty."""
    if not block.whole and not block.hints:
        return ""
    line = render_timeline_line if order is ContextOrder.TIMELINE else render_line
    lines = [PREAMBLE, *(line(m) for m in in_order(block.whole, order))]
    if block.hints:
        lines += [RELATED_HEADER, *(text for _, text in block.hints)]
    return "\n".join(lines)
