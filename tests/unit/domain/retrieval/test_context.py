"""Context rendering: whole memories, type priority, relevance order, never over budget."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import uuid4

from hypothesis import given, strategies as st

from memlane.domain.model import MemoryContext, MemoryType
from memlane.domain.retrieval.context import PREAMBLE, fit_to_budget, render_context, render_line

CREATED = datetime(2025, 1, 1, tzinfo=UTC)
PRIORITY = [
    MemoryType.CORRECTION,
    MemoryType.FACT,
    MemoryType.PREFERENCE,
    MemoryType.CONTEXT,
    MemoryType.TOOL_RESULT,
]


def memory(
    content: str, memory_type: MemoryType = MemoryType.FACT, relevance: float = 0.5
) -> MemoryContext:
    return MemoryContext(
        id=uuid4(),
        content=content,
        memory_type=memory_type,
        relevance=relevance,
        similarity=0.5,
        importance=0.5,
        created_at=CREATED,
    )


memories = st.lists(
    st.builds(
        memory,
        content=st.text(min_size=1, max_size=300),
        memory_type=st.sampled_from(list(MemoryType)),
        relevance=st.floats(min_value=-1.0, max_value=2.0),
    ),
    max_size=12,
)
budgets = st.integers(min_value=0, max_value=3000)


def flat(text: str) -> str:
    return " ".join(text.split())


def rendered_lines(text: str) -> list[str]:
    assert text.startswith(PREAMBLE + "\n")
    return text[len(PREAMBLE) + 1 :].split("\n")


@given(items=memories, budget=budgets)
def test_the_rendered_block_never_exceeds_the_budget(
    items: list[MemoryContext], budget: int
) -> None:
    assert len(render_context(items, budget)) <= budget


@given(items=memories, budget=budgets)
def test_every_rendered_line_is_one_whole_memory_with_its_type(
    items: list[MemoryContext], budget: int
) -> None:
    text = render_context(items, budget)
    chosen = fit_to_budget(items, budget)
    if not chosen:
        assert text == ""
        return
    lines = rendered_lines(text)
    assert lines == [f"- [{m.memory_type.value}] {flat(m.content)}" for m in chosen]
    assert all(m in items for m in chosen)


@given(items=memories, budget=budgets)
def test_chosen_memories_keep_type_priority_then_relevance_order(
    items: list[MemoryContext], budget: int
) -> None:
    chosen = fit_to_budget(items, budget)
    keys = [(m.memory_type.priority, -m.relevance) for m in chosen]
    assert keys == sorted(keys)


@given(items=memories, budget=budgets)
def test_a_memory_left_out_would_not_have_fitted(items: list[MemoryContext], budget: int) -> None:
    chosen = fit_to_budget(items, budget)
    used = len(PREAMBLE) + sum(1 + len(render_line(m)) for m in chosen)
    for left_out in (m for m in items if m not in chosen):
        assert used + 1 + len(render_line(left_out)) > budget


def test_priority_is_correction_fact_preference_context_tool_result() -> None:
    items = [memory(f"{t.value} memory", t) for t in reversed(PRIORITY)]
    assert [m.memory_type for m in fit_to_budget(items, 10_000)] == PRIORITY


def test_within_a_type_the_more_relevant_memory_comes_first_whatever_the_input_order() -> None:
    weak = memory("weak", MemoryType.FACT, relevance=0.2)
    strong = memory("strong", MemoryType.FACT, relevance=0.9)
    fix = memory("fix", MemoryType.CORRECTION, relevance=0.1)
    assert fit_to_budget([weak, strong, fix], 10_000) == [fix, strong, weak]


def test_a_memory_that_does_not_fit_is_skipped_whole_and_a_smaller_one_still_fits() -> None:
    big = memory("x" * 500, MemoryType.CORRECTION)
    small = memory("likes tea", MemoryType.PREFERENCE)
    budget = len(PREAMBLE) + 1 + len(render_line(small)) + 10
    text = render_context([big, small], budget)
    assert rendered_lines(text) == ["- [preference] likes tea"]
    assert "x" not in text.split("\n", 1)[1]


def test_multi_line_content_is_rendered_on_one_line() -> None:
    qa = memory("Q: where do I live?\nA: in  Berlin", MemoryType.FACT)
    assert rendered_lines(render_context([qa])) == ["- [fact] Q: where do I live? A: in Berlin"]


def test_nothing_is_rendered_when_nothing_fits_or_nothing_is_given() -> None:
    assert render_context([]) == ""
    assert render_context([memory("my name is Anna")], len(PREAMBLE)) == ""
    assert render_context([memory("my name is Anna")], 0) == ""


def test_a_budget_exactly_big_enough_renders_the_memory() -> None:
    item = memory("my name is Anna")
    budget = len(PREAMBLE) + 1 + len(render_line(item))
    assert len(render_context([item], budget)) == budget
    assert render_context([item], budget - 1) == ""
