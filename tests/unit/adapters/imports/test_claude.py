"""Claude exports: human turns, replies and tool results in order, with times, and clear errors."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from memlane.adapters.imports import parse_export
from memlane.adapters.imports.claude import parse_conversation, parse_conversations
from memlane.domain.portability.chats import ImportedChat, ImportFormatError, message_keys

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "imports" / "claude_conversations.json"


@pytest.fixture
def export() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


def chats_of(data: object) -> list[ImportedChat]:
    return list(parse_conversations(data))


def one_message(**fields: Any) -> dict[str, Any]:
    return {"uuid": "c", "chat_messages": [{"uuid": "m", "sender": "human", **fields}]}


def test_human_becomes_user_and_the_order_is_kept(export: list[dict[str, Any]]) -> None:
    sourdough = chats_of(export)[0]
    assert [(m.role, m.external_id) for m in sourdough.messages] == [
        ("user", "c1-m1"), ("assistant", "c1-m2"),
    ]
    assert sourdough.messages[1].content.startswith("It is not dead")


def test_chat_fields_and_times_are_read_as_aware_utc(export: list[dict[str, Any]]) -> None:
    sourdough = chats_of(export)[0]
    assert sourdough.source == "claude"
    assert sourdough.conversation_id == "claude:0b6f2d8e-5c1a-4f3e-9d7b-2a1c3e4f5a6b"
    assert sourdough.title == "Sourdough starter smells like acetone"
    assert sourdough.created_at == datetime(2024, 6, 1, 9, 0, tzinfo=UTC)
    assert sourdough.updated_at == datetime(2024, 6, 1, 9, 5, 12, 345678, tzinfo=UTC)
    assert sourdough.messages[1].created_at == datetime(2024, 6, 1, 9, 0, 9, 500000, tzinfo=UTC)


def test_attachments_are_not_imported_as_message_text(export: list[dict[str, Any]]) -> None:
    question = chats_of(export)[0].messages[0]
    assert question.content == "My sourdough starter smells like nail polish remover. Is it dead?"


def test_an_empty_text_is_replaced_by_the_content_text_blocks(
    export: list[dict[str, Any]],
) -> None:
    flights = chats_of(export)[1]
    assert flights.messages[0].content == "Find me a cheap flight from Lisbon to Berlin in July."


def test_a_tool_result_becomes_a_tool_message_between_the_texts_around_it(
    export: list[dict[str, Any]],
) -> None:
    flights = chats_of(export)[1]
    assert [(m.role, m.content) for m in flights.messages[1:4]] == [
        ("assistant", "Let me search for flights."),
        ("tool", "LIS to BER, 14 July, 89 EUR, direct"),
        ("assistant", "The cheapest I found is 89 EUR, direct, on 14 July."),
    ]
    assert flights.messages[2].name == "web_search"
    assert not any("should search" in m.content for m in flights.messages)  # thinking


def test_a_message_without_content_blocks_uses_its_text(export: list[dict[str, Any]]) -> None:
    flights = chats_of(export)[1]
    assert (flights.messages[-1].role, flights.messages[-1].content) == (
        "user", "Thanks, that works for me.",
    )


def test_an_unnamed_chat_has_no_title(export: list[dict[str, Any]]) -> None:
    assert chats_of(export)[1].title is None


def test_the_pieces_of_one_message_get_distinct_stable_keys(
    export: list[dict[str, Any]],
) -> None:
    flights = chats_of(export)[1]
    keys = message_keys(flights)
    assert len(set(keys)) == len(keys) == 5
    assert keys == message_keys(chats_of(copy.deepcopy(export))[1])


def test_a_string_tool_result_and_an_unknown_sender_are_handled() -> None:
    chat = parse_conversation({"uuid": "c", "chat_messages": [
        {"sender": "assistant", "text": "", "content": [
            {"type": "tool_result", "name": "calc", "content": "42"},
        ]},
        {"sender": "narrator", "text": "ignored"},
    ]}, 0)
    assert [(m.role, m.content, m.name, m.external_id) for m in chat.messages] == [
        ("tool", "42", "calc", None),
    ]


def test_a_time_without_offset_is_taken_as_utc() -> None:
    chat = parse_conversation(one_message(text="hi", created_at="2024-06-01T09:00:00"), 0)
    assert chat.messages[0].created_at == datetime(2024, 6, 1, 9, tzinfo=UTC)


def test_the_export_must_be_a_list() -> None:
    with pytest.raises(ImportFormatError, match=r"conversations\.json: expected a list"):
        parse_export("[]", "claude")


def test_a_chat_without_messages_names_its_position(export: list[dict[str, Any]]) -> None:
    del export[1]["chat_messages"]
    expected = r"^conversation 1 \(7c1d9e2f\S*\): chat_messages missing"
    with pytest.raises(ImportFormatError, match=expected):
        chats_of(export)


def test_a_chat_without_uuid_is_refused() -> None:
    with pytest.raises(ImportFormatError, match="conversation 3: uuid missing"):
        parse_conversation({"chat_messages": []}, 3)


def test_a_sender_of_the_wrong_type_is_refused() -> None:
    with pytest.raises(ImportFormatError, match="message 0: sender must be a non-empty string"):
        parse_conversation({"uuid": "c", "chat_messages": [{"sender": 1, "text": "x"}]}, 0)


def test_an_unreadable_time_is_refused() -> None:
    with pytest.raises(ImportFormatError, match="created_at 'yesterday' is not an ISO 8601 time"):
        parse_conversation(one_message(text="hi", created_at="yesterday"), 0)


def test_content_that_is_not_a_list_is_refused() -> None:
    with pytest.raises(ImportFormatError, match="message 0: content: expected a list, got dict"):
        parse_conversation(one_message(text="hi", content={"type": "text"}), 0)
