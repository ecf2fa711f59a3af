"""Deterministic abstracts and the Q&A content form, no model involved."""

from __future__ import annotations

import re

SUMMARY_MAX_CHARS = 200
QA_QUESTION_CHARS = 100
QA_ANSWER_CHARS = 50
ELLIPSIS = "…"

_SENTENCE_END = re.compile(r"(?<=[.!?])\s")
_QA = re.compile(r"\AQ: (?P<q>.*?)\nA: (?P<a>.*)\Z", re.DOTALL)


def truncate(text: str, max_chars: int) -> str:
    """Collapse whitespace and cut at a word boundary, marking the cut with an ellipsis."""
    flat = " ".join(text.split())
    if len(flat) <= max_chars:
        return flat
    cut = flat[: max_chars - 1]
    if " " in cut[max_chars // 2 :]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip() + ELLIPSIS


def qa_content(question: str, answer: str) -> str:
    """How a learned question/answer pair is stored."""
    return f"Q: {question.strip()}\nA: {answer.strip()}"


def summarize(content: str) -> str:
    """First sentence or a truncation (≤ 200 chars); 'Q: … → A: …' for Q&A content."""
    qa = _QA.match(content)
    if qa:
        q = truncate(qa["q"], QA_QUESTION_CHARS)
        a = truncate(qa["a"], QA_ANSWER_CHARS)
        return truncate(f"Q: {q} → A: {a}", SUMMARY_MAX_CHARS)
    flat = " ".join(content.split())
    first = _SENTENCE_END.split(flat, maxsplit=1)[0]
    return truncate(first, SUMMARY_MAX_CHARS)
