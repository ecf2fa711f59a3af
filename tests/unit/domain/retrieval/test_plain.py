"""The plain block by RMG decision 5: named or answering memories whole, overlap as hints."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import uuid4

from memlane.domain.model import ContextRole, MemoryContext, MemoryType
from memlane.domain.retrieval import (
    PREAMBLE,
    RELATED_HEADER,
    fit_plain,
    render_line,
    render_plain,
)

NOW = datetime(2030, 6, 1, tzinfo=UTC)


def memory(content: str, role: ContextRole = ContextRole.ENTRY) -> MemoryContext:
    return MemoryContext(uuid4(), content, MemoryType.CONTEXT, 0.5, 0.5, 0.5, NOW, role=role)


ENTRY = memory("Marek the tiler starts on Monday. He brings his own tools and the grout.")
LINKED = memory("The kitchen budget is 12,000 euros. The sink is not included.",
                ContextRole.SEMANTIC)
ABSTRACTS = {ENTRY.id: "Marek the tiler starts on Monday.",
             LINKED.id: "The kitchen budget is 12,000 euros."}


def test_an_answering_memory_is_whole_and_an_overlapping_one_a_hint_line() -> None:
    block = fit_plain([ENTRY, LINKED], ABSTRACTS, set(), 2000)
    assert render_plain(block) == "\n".join([
        PREAMBLE, render_line(ENTRY), RELATED_HEADER,
        "- [context] The kitchen budget is 12,000 euros.",
    ])


def test_an_overlapping_memory_the_question_names_is_whole() -> None:
    block = fit_plain([ENTRY, LINKED], ABSTRACTS, {LINKED.id}, 2000)
    assert block.whole == [LINKED, ENTRY] and block.hints == []  # the named one first


def test_named_memories_take_the_budget_first_and_it_is_never_exceeded() -> None:
    other = memory("Lena plays the cello in a youth orchestra on Thursdays after school.")
    budget = len(PREAMBLE) + 1 + len(render_line(other))
    block = fit_plain([ENTRY, other], ABSTRACTS, {other.id}, budget)
    assert block.whole == [other]
    assert len(render_plain(block)) <= budget


def test_nothing_fits_nothing_is_rendered() -> None:
    assert render_plain(fit_plain([ENTRY], ABSTRACTS, set(), 10)) == ""
