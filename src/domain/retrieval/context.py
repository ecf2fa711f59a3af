"""Choosing and rendering memories as a prompt block within a character budget."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from memlane.domain.model import MemoryContext

PREAMBLE = (
    "Known facts about the user from earlier conversations. Treat them as true unless the "
    "user says otherwise; corrections override older facts, and a newer statement replaces "
    "an older one it contradicts:"
)
DEFAULT_CONTEXT_CHAR_BUDGET = 2000
MAX_ACTIVE_CONTEXT = 20


class ContextOrder(StrEnum):
    PRIORITY = "priority"  # seed 003: corrections, facts, preferences, context, tool results
    TIMELINE = "timeline"  # PMG: oldest first, each line dated and labelled by its role


@dataclass(frozen=True, slots=True)
class ContextOptions:
    """How a context is chosen beyond the query.

    conversation_id: the current session; its memories are already in the prompt and are
    left out unless include_current. active_context: texts already in the prompt; memories
    at or above the model's active-context line to one of them (domain/similarity.py) are
    left out. include_superseded:
    memories another one replaced come back too (labelled), as they do for questions about
    the past. include_profile: the prompt block opens with the user's core facts.
    asked_at: when the question is asked, for the times its words point at ("four weeks
    ago", "last Saturday": domain/retrieval/when.py); None is now."""

    conversation_id: str | None = None
    include_current: bool = False
    active_context: tuple[str, ...] = ()
    order: ContextOrder = ContextOrder.PRIORITY
    include_superseded: bool = False
    # The "do not forget" profile's core tier opens the rendered block (docs/facts.md).
    include_profile: bool = True
    # The prompt block's hard budget in the embedder's tokens (None: the configured one).
    token_budget: int | None = None
    asked_at: datetime | None = None

    def __post_init__(self) -> None:
        if len(self.active_context) > MAX_ACTIVE_CONTEXT:
            raise ValueError(f"at most {MAX_ACTIVE_CONTEXT} active_context texts")
        if self.token_budget is not None and self.token_budget < 1:
            raise ValueError("token_budget must be at least 1")
        if self.asked_at is not None and self.asked_at.tzinfo is None:
            raise ValueError("asked_at must carry a time zone")

    def excludes_conversation(self, conversation_id: str | None) -> bool:
        return (
            not self.include_current and self.conversation_id is not None
            and conversation_id == self.conversation_id
        )


def by_type_priority(memories: Sequence[MemoryContext]) -> list[MemoryContext]:
    """Order by type priority, most relevant first within a type (ties keep their order)."""
    # Sorting on relevance too, rather than trusting the caller's order, keeps the rule here.
    return sorted(memories, key=lambda m: (m.memory_type.priority, -m.relevance))


def render_line(memory: MemoryContext) -> str:
    """One memory as a prompt line: its type and its full content on one line."""
    return f"- [{memory.memory_type.value}] " + " ".join(memory.content.split())


def fit_to_budget(
    memories: Sequence[MemoryContext],
    context_char_budget: int = DEFAULT_CONTEXT_CHAR_BUDGET,
    order: ContextOrder | None = None,
) -> list[MemoryContext]:
    """The prioritised memories whose whole lines (as `order` renders them) fit, after the
    preamble, in the budget; in priority order."""
    line = render_timeline_line if order is ContextOrder.TIMELINE else render_line
    used = len(PREAMBLE)
    chosen: list[MemoryContext] = []
    for memory in by_type_priority(memories):
        cost = 1 + len(line(memory))  # newline + line
        if used + cost <= context_char_budget:
            chosen.append(memory)
            used += cost
    return chosen


def in_order(memories: Sequence[MemoryContext], order: ContextOrder) -> list[MemoryContext]:
    """The memories as the prompt shows them: by type priority, or oldest first."""
    if order is ContextOrder.TIMELINE:
        return sorted(memories, key=lambda m: (m.created_at, m.id))
    return by_type_priority(memories)


def render_timeline_line(memory: MemoryContext) -> str:
    """One memory as a timeline line: its date, how it was found, its full content."""
    text = " ".join(memory.content.split())
    return f"- [{memory.created_at:%Y-%m-%d}, {memory.role}] {text}"


def render_context(
    memories: Sequence[MemoryContext],
    context_char_budget: int = DEFAULT_CONTEXT_CHAR_BUDGET,
    order: ContextOrder = ContextOrder.PRIORITY,
) -> str:
    """The prompt block: preamble plus whole memories, never over budget. Which memories fit
    is decided by priority; `order` decides how they are shown.

    Returns an empty string when no memory fits (or none is given).
    """
    chosen = fit_to_budget(memories, context_char_budget, order)
    if not chosen:
        return ""
    if order is ContextOrder.TIMELINE:
        return "\n".join([PREAMBLE, *(render_timeline_line(m) for m in in_order(chosen, order))])
    return "\n".join([PREAMBLE, *(render_line(m) for m in chosen)])
