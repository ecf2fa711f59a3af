"""What a proxied request asks memory: the query, and the texts already in its prompt.

Both stay within POST /v1/context's limits (a query of 4,096 characters, 20 active texts of
4,096 each) by selecting and cutting, never by refusing the chat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from memlane.domain.memories import segment_document
from memlane.domain.proxy.chat import ChatMessage, Exchange, exchanges
from memlane.domain.retrieval import MAX_ACTIVE_CONTEXT
from memlane.domain.text_rules import NUL, is_blank

MAX_QUERY_CHARS = 4096
MAX_ACTIVE_TEXT_CHARS = 4096


class PreviousTurn(StrEnum):
    NEVER = "never"  # the last user message alone
    ALWAYS = "always"  # the previous turn joins every query
    SHORT = "short"  # the previous turn joins a last message of few words (a follow-up)


@dataclass(frozen=True, slots=True)
class QueryRule:
    """When the previous turn joins the last user message in the query, and how much of it.

    The default was chosen on bench/data/proxy_followups.jsonl (bench/proxy_query.py): see
    docs/proxy.md, "The query"."""

    previous: PreviousTurn = PreviousTurn.ALWAYS
    short_words: int = 8  # SHORT: a last message of at most this many words
    with_reply: bool = False  # the previous turn's assistant reply joins too


def query_for(messages: Sequence[ChatMessage], rule: QueryRule = QueryRule()) -> str:
    """The query for the request's last user message ("" when there is none)."""
    found = exchanges(messages)
    if not found:
        return ""
    last = _clean(found[-1].user)
    joined = len(found) > 1 and (
        rule.previous is PreviousTurn.ALWAYS
        or (rule.previous is PreviousTurn.SHORT and len(last.split()) <= rule.short_words)
    )
    if not joined:
        return last[-MAX_QUERY_CHARS:] if len(last) > MAX_QUERY_CHARS else last
    before = _previous(found[-2], rule.with_reply)
    room = MAX_QUERY_CHARS - len(last) - 1
    if room <= 0 or not before:
        return last[:MAX_QUERY_CHARS]
    # The last message is kept whole; the previous turn gives way (its end is nearest).
    return f"{before[-room:]}\n{last}"


def active_texts(
    messages: Sequence[ChatMessage], now: datetime, most: int = MAX_ACTIVE_CONTEXT
) -> list[str]:
    """The exchanges before the last user message, newest first (at most `most`, each cut to
    4,096 characters), as the conversation route embeds them, dated `now`: a segment
    restating one scores 0.91-0.99 with the default model even when stored on another day
    (undated, 0.73-0.94: under MiniLM's active-context line 0.85, domain/similarity.py), a
    segment merely on the same topic 0.4-0.6 (docs/proxy.md)."""
    found = exchanges(messages)[:-1]
    texts = []
    for exchange in reversed(found):
        text = segment_document(_clean(exchange.as_segment()), now)[:MAX_ACTIVE_TEXT_CHARS]
        if text and not is_blank(text):
            texts.append(text)
        if len(texts) >= min(most, MAX_ACTIVE_CONTEXT):
            break
    return texts


def _previous(exchange: Exchange, with_reply: bool) -> str:
    parts = [exchange.user, exchange.reply] if with_reply else [exchange.user]
    return _clean("\n".join(p for p in parts if p.strip()))


def _clean(text: str) -> str:
    return text.replace(NUL, "").strip()
