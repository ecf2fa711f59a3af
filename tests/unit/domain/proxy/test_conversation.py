"""Conversation ids of proxied chats, turn keys, and the query and active context."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any

from memlane.domain.proxy.chat import read_messages
from memlane.domain.proxy.conversation import derived_id, named_id, turn_key
from memlane.domain.proxy.query import (
    MAX_QUERY_CHARS,
    PreviousTurn,
    QueryRule,
    active_texts,
    query_for,
)


def digest(text: str) -> str:
    return hashlib.sha256(b"test-key" + text.encode()).hexdigest()


def chat(*texts: str, system: str | None = None) -> Any:
    messages = [{"role": "system", "content": system}] if system else []
    for index, text in enumerate(texts):
        messages.append({"role": "user" if index % 2 == 0 else "assistant", "content": text})
    return read_messages({"messages": messages})


def test_a_named_id_is_kept_when_usable_and_hashed_when_not() -> None:
    assert named_id("chat-42", digest) == "chat-42"
    long = named_id("x" * 500, digest)
    assert long is not None and len(long) <= 200 and long == named_id("x" * 500, digest)
    assert named_id("bad\x00id", digest) != "bad\x00id"
    assert named_id("  ", digest) is None and named_id(None, digest) is None


def test_a_derived_id_is_stable_through_a_chat_and_within_200_characters() -> None:
    first = derived_id("u", chat("hi"), "Hello! How can I help?", digest)
    second = derived_id("u", chat("hi", "Hello! How can I help?", "I live in Porto"), None, digest)
    third = derived_id("u", chat("hi", "Hello! How can I help?", "I live in Porto", "Nice!",
                                 "And you?"), None, digest)
    assert first == second == third and first is not None and len(first) <= 200


def test_two_chats_opening_with_hi_part_ways_at_their_answers() -> None:
    one = derived_id("u", chat("hi", "Hello! How can I help?", "Plan my trip"), None, digest)
    two = derived_id("u", chat("hi", "Hi there, what's up?", "Plan my trip"), None, digest)
    assert one != two


def test_the_derived_id_depends_on_the_user_and_the_system_prompt() -> None:
    base = derived_id("u", chat("hi", "hello", "x"), None, digest)
    assert derived_id("v", chat("hi", "hello", "x"), None, digest) != base
    assert derived_id("u", chat("hi", "hello", "x", system="Be brief"), None, digest) != base


def test_a_regenerated_answer_asks_the_same_turn_and_the_next_question_another() -> None:
    asked = chat("hi", "hello", "Where is Porto?")
    assert turn_key(asked, digest) == turn_key(chat("hi", "hello", "Where is Porto?"), digest)
    assert turn_key(asked, digest) != turn_key(
        chat("hi", "hello", "Where is Porto?", "In Portugal.", "Where is Porto?"), digest
    )


def test_a_follow_up_query_takes_the_previous_question_along() -> None:
    messages = chat("My sister Anna is visiting next week.", "How nice!", "What does she like?")
    rule = QueryRule(PreviousTurn.SHORT, short_words=8)
    assert query_for(messages, rule) == "My sister Anna is visiting next week.\nWhat does she like?"
    assert query_for(messages, QueryRule(PreviousTurn.NEVER)) == "What does she like?"
    long = chat("Anna", "ok", "Tell me everything you know about my plans for the summer trip")
    assert query_for(long, rule).startswith("Tell me")


def test_the_query_and_active_texts_stay_within_the_context_routes_limits() -> None:
    huge = chat("a" * 9000, "b" * 9000, "c" * 9000)
    assert len(query_for(huge, QueryRule(PreviousTurn.ALWAYS))) <= MAX_QUERY_CHARS
    many = chat(*[f"message {i}" for i in range(61)])
    now = datetime(2026, 5, 3, tzinfo=UTC)
    texts = active_texts(many, now)
    assert len(texts) == 20 and all(len(t) <= 4096 for t in texts)
    # The newest first, as a segment is embedded (dated).
    assert texts[0] == "03 May 2026. user: message 58\nassistant: message 59"
    assert all("\x00" not in t for t in active_texts(chat("a\x00b", "c", "d"), now))
