"""What a proxied exchange leaves to learn: the last user message and the answer, cut to fit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memlane.domain.proxy.answer import Answer
from memlane.domain.proxy.chat import ChatMessage, last_user
from memlane.domain.text_rules import NUL, is_blank

# Metadata of a proxy-learned segment: where it came from and the turn it answers (a
# regenerated answer to the same turn replaces it).
SOURCE_KEY = "source"
SOURCE = "proxy"
TURN_KEY = "proxy_turn"
# "user: " and "\nassistant: ", as the conversation route writes a segment's lines.
_LINES_BYTES = len("user: \nassistant: ")


@dataclass(frozen=True, slots=True)
class LearnedExchange:
    question: str
    answer: str


def learned_exchange(
    messages: Sequence[ChatMessage], answer: Answer, max_bytes: int
) -> LearnedExchange | None:
    """The exchange to store, or None: the answer is not learnable (a tool round, an error,
    no text), or the request does not end with the user's turn (its last message is neither
    a user message nor a tool result answering one). Both sides are cut so the segment
    stays within `max_bytes`."""
    if not answer.learnable:
        return None
    asked = last_user(messages)
    if asked is None:
        return None
    if any(
        m.role not in ("tool", "system") and not (m.role == "assistant" and m.calls_tools)
        for m in messages[asked + 1:]
    ):
        return None  # the request ends with an assistant message: no question of its own
    question = messages[asked].text.replace(NUL, "").strip()
    text = answer.text.replace(NUL, "").strip()
    if is_blank(question) or is_blank(text):
        return None
    question, text = _fitted(question, text, max_bytes - _LINES_BYTES)
    return LearnedExchange(question, text)


def _fitted(question: str, answer: str, budget_bytes: int) -> tuple[str, str]:
    """Both texts within `budget_bytes` of UTF-8 together: the longer gives way first, and
    neither is cut below half the budget while the other needs less."""
    q_size, a_size = len(question.encode()), len(answer.encode())
    if q_size + a_size <= budget_bytes:
        return question, answer
    half = budget_bytes // 2
    q_keep = q_size if q_size <= half else max(half, budget_bytes - a_size)
    a_keep = budget_bytes - min(q_keep, q_size)
    return _cut(question, q_keep), _cut(answer, a_keep)


def _cut(text: str, max_bytes: int) -> str:
    return text.encode()[:max(0, max_bytes)].decode("utf-8", "ignore").strip()
