"""Imported chats keep their invariants and map to stable memlane ids, so re-import is safe."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, strategies as st

from memlane.domain.errors import InvalidMemory
from memlane.domain.portability.chats import (
    ImportedChat,
    ImportedMessage,
    ImportFormatError,
    conversation_id_for,
    message_key,
    message_keys,
)

T0 = datetime(2030, 1, 1, tzinfo=UTC)


def a_chat(*messages: ImportedMessage, external_id: str = "chat-1") -> ImportedChat:
    return ImportedChat("chatgpt", external_id, "A title", T0, T0, tuple(messages))


def test_a_plain_external_id_gives_source_colon_id() -> None:
    assert conversation_id_for("chatgpt", "6650f0c2-1a2b") == "chatgpt:6650f0c2-1a2b"
    assert conversation_id_for("claude", "6650f0c2-1a2b") == "claude:6650f0c2-1a2b"


def test_the_chat_offers_the_same_conversation_id_as_the_helper() -> None:
    assert a_chat(external_id="abc").conversation_id == conversation_id_for("chatgpt", "abc")


@given(st.text(min_size=1, max_size=500))
def test_any_external_id_gives_a_stable_url_safe_id_within_200_characters(external: str) -> None:
    first = conversation_id_for("claude", external)
    assert first == conversation_id_for("claude", external)
    assert len(first) <= 200
    assert first.startswith("claude:")
    assert all(c.isascii() and (c.isalnum() or c in ":._-") for c in first)


def test_an_id_with_slashes_is_replaced_by_its_digest() -> None:
    assert conversation_id_for("chatgpt", "a/b") != conversation_id_for("chatgpt", "a_b")
    assert conversation_id_for("chatgpt", "a/b").startswith("chatgpt:sha256-")


def test_an_unknown_source_is_refused() -> None:
    with pytest.raises(ImportFormatError, match="source"):
        conversation_id_for("gemini", "x")  # type: ignore[arg-type]


def test_message_keys_are_stable_and_differ_by_source_chat_and_message() -> None:
    key = message_key("chatgpt", "chat-1", "m-1")
    assert key == message_key("chatgpt", "chat-1", "m-1")
    assert len(key) == 64
    others = {
        message_key("claude", "chat-1", "m-1"),
        message_key("chatgpt", "chat-2", "m-1"),
        message_key("chatgpt", "chat-1", "m-2"),
    }
    assert key not in others and len(others) == 3


def test_a_message_id_never_equals_a_position_written_the_same() -> None:
    assert message_key("chatgpt", "c", "3") != message_key("chatgpt", "c", 3)


def test_keys_use_positions_for_messages_without_ids() -> None:
    chat = a_chat(ImportedMessage("user", "hi"), ImportedMessage("assistant", "hello"))
    assert message_keys(chat) == (
        message_key("chatgpt", "chat-1", 0), message_key("chatgpt", "chat-1", 1),
    )


def test_repeated_message_ids_still_get_distinct_keys() -> None:
    chat = a_chat(
        ImportedMessage("user", "one", external_id="m"),
        ImportedMessage("tool", "two", external_id="m"),
        ImportedMessage("assistant", "three", external_id="m#1"),
    )
    keys = message_keys(chat)
    assert len(set(keys)) == 3
    assert keys[0] == message_key("chatgpt", "chat-1", "m")


def test_the_format_error_is_an_invalid_memory_so_the_edge_maps_it_to_a_422() -> None:
    assert issubclass(ImportFormatError, InvalidMemory)


def test_a_naive_or_non_utc_time_is_refused() -> None:
    with pytest.raises(ImportFormatError, match="UTC"):
        ImportedMessage("user", "hi", datetime(2030, 1, 1))
    with pytest.raises(ImportFormatError, match="UTC"):
        ImportedChat("claude", "x", None, T0.astimezone(timezone(timedelta(hours=2))), None, ())


def test_an_unknown_role_and_blank_content_are_refused() -> None:
    with pytest.raises(ImportFormatError, match="role"):
        ImportedMessage("critic", "hi")  # type: ignore[arg-type]
    with pytest.raises(ImportFormatError, match="content"):
        ImportedMessage("user", " \n ")


def test_a_chat_needs_a_known_source_and_an_external_id() -> None:
    with pytest.raises(ImportFormatError, match="source"):
        ImportedChat("gemini", "x", None, None, None, ())  # type: ignore[arg-type]
    with pytest.raises(ImportFormatError, match="external id"):
        ImportedChat("claude", " ", None, None, None, ())
