"""Choosing and rendering memories as a prompt block within a character budget."""

from __future__ import annotations

from collections.abc import Sequence

from memlane.domain.model import MemoryContext

PREAMBLE = (
    "Known facts about the user from earlier conversations. Treat them as true unless the "
    "user says otherwise; corrections override older facts:"
)
DEFAULT_CONTEXT_CHAR_BUDGET = 2000


def by_type_priority(memories: Sequence[MemoryContext]) -> list[MemoryContext]:
    """Order by type priority, most relevant first within a type (ties keep their order)."""
    # Sorting on relevance too, rather than trusting the caller's order, keeps the rule here.
    return sorted(memories, key=lambda m: (m.memory_type.priority, -m.relevance))


def render_line(memory: MemoryContext) -> str:
    """One memory as a prompt line: its type and its full content on one line."""
    return f"- [{memory.memory_type.value}] " + " ".join(memory.content.split())


def fit_to_budget(
    memories: Sequence[MemoryContext], context_char_budget: int = DEFAULT_CONTEXT_CHAR_BUDGET
) -> list[MemoryContext]:
    """The prioritised memories whose whole lines fit, after the preamble, in the budget."""
    used = len(PREAMBLE)
    chosen: list[MemoryContext] = []
    for memory in by_type_priority(memories):
        cost = 1 + len(render_line(memory))  # newline + line
        if used + cost <= context_char_budget:
            chosen.append(memory)
            used += cost
    return chosen


def render_context(
    memories: Sequence[MemoryContext], context_char_budget: int = DEFAULT_CONTEXT_CHAR_BUDGET
) -> str:
    """The prompt block: preamble plus whole memories in priority order, never over budget.

    Returns an empty string when no memory fits (or none is given).
    """
    chosen = fit_to_budget(memories, context_char_budget)
    if not chosen:
        return ""
    return "\n".join([PREAMBLE, *(render_line(m) for m in chosen)])
