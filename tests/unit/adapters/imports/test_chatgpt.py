"""ChatGPT exports: the branch the user last saw, in order, roles, times; clear errors."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from memlane.adapters.imports import parse_export
from memlane.adapters.imports.chatgpt import parse_conversation, parse_conversations
from memlane.domain.portability.chats import ImportedChat, ImportFormatError, message_keys

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures/imports/chatgpt_conversations.json"


@pytest.fixture
def export() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


def chats_of(data: object) -> list[ImportedChat]:
    return list(parse_conversations(data))


def node(node_id: str, parent: str | None, children: list[str], text: str | None) -> dict[str, Any]:
    message = None if text is None else {
        "id": node_id, "author": {"role": "user", "name": None}, "create_time": None,
        "content": {"content_type": "text", "parts": [text]}, "metadata": {}, "recipient": "all",
    }
    return {"id": node_id, "message": message, "parent": parent, "children": children}


def test_only_the_current_branch_is_imported_in_order(export: list[dict[str, Any]]) -> None:
    puppy = chats_of(export)[0]
    assert [m.content for m in puppy.messages] == [
        "I adopted a beagle puppy yesterday!",
        "Congratulations! Beagles are curious and friendly. Have you picked a name yet?",
        "Is Bello a good name for him?",
        "Bello is a lovely name: short, cheerful and easy to call across a park.",
    ]
    assert [m.role for m in puppy.messages] == ["user", "assistant", "user", "assistant"]


def test_a_hidden_system_message_is_skipped(export: list[dict[str, Any]]) -> None:
    puppy = chats_of(export)[0]
    assert all(m.role != "system" for m in puppy.messages)
    assert not any("prefers short answers" in m.content for m in puppy.messages)


def test_a_visible_system_message_is_kept(export: list[dict[str, Any]]) -> None:
    export[0]["mapping"]["sys-0"]["message"]["metadata"] = {}
    first = chats_of(export)[0].messages[0]
    assert first.role == "system"
    assert first.content == "You are ChatGPT. The user prefers short answers."


def test_chat_fields_and_times_are_read_as_aware_utc(export: list[dict[str, Any]]) -> None:
    puppy = chats_of(export)[0]
    assert puppy.source == "chatgpt"
    assert puppy.external_id == "6650f0c2-1a2b-4c3d-8e9f-0a1b2c3d4e5f"
    assert puppy.conversation_id == "chatgpt:6650f0c2-1a2b-4c3d-8e9f-0a1b2c3d4e5f"
    assert puppy.title == "Naming the new puppy"
    assert puppy.created_at == datetime(2024, 5, 29, 16, 26, 40, tzinfo=UTC)
    assert puppy.updated_at == datetime(2024, 5, 29, 16, 27, 25, 250000, tzinfo=UTC)
    assert puppy.messages[0].created_at == datetime(2024, 5, 29, 16, 26, 50, 500000, tzinfo=UTC)


def test_a_multimodal_message_keeps_its_text_and_drops_the_image(
    export: list[dict[str, Any]],
) -> None:
    lisbon = chats_of(export)[1]
    assert lisbon.messages[0].content == "What is this building? I took the photo in Lisbon."


def test_a_tool_output_is_a_tool_message_and_the_call_before_it_is_skipped(
    export: list[dict[str, Any]],
) -> None:
    lisbon = chats_of(export)[1]
    assert [m.role for m in lisbon.messages] == ["user", "assistant", "user", "tool", "assistant"]
    tool = lisbon.messages[3]
    assert tool.name == "browser" and "0% chance of rain" in tool.content
    assert not any("search(" in m.content for m in lisbon.messages)


def test_blank_messages_are_skipped_and_a_missing_time_is_none(
    export: list[dict[str, Any]],
) -> None:
    lisbon = chats_of(export)[1]
    assert all(m.content.strip() for m in lisbon.messages)
    assert lisbon.messages[-1].external_id == "b-a-4" and lisbon.messages[-1].created_at is None


def test_parsing_the_same_export_twice_gives_the_same_ids_and_keys(
    export: list[dict[str, Any]],
) -> None:
    first, again = chats_of(export), chats_of(copy.deepcopy(export))
    assert [c.conversation_id for c in first] == [c.conversation_id for c in again]
    assert [message_keys(c) for c in first] == [message_keys(c) for c in again]
    assert first == again


def test_without_current_node_the_latest_leaf_is_followed(export: list[dict[str, Any]]) -> None:
    del export[0]["current_node"]
    assert chats_of(export)[0].messages[-1].external_id == "a-2"


def test_a_chat_with_an_empty_mapping_has_no_messages() -> None:
    chat = parse_conversation({"id": "c", "mapping": {}, "current_node": None}, 0)
    assert chat.messages == () and chat.title is None


def test_the_export_must_be_a_list() -> None:
    with pytest.raises(ImportFormatError, match=r"conversations\.json: expected a list"):
        parse_export({"conversations": []}, "chatgpt")


def test_a_chat_without_mapping_names_its_position(export: list[dict[str, Any]]) -> None:
    del export[1]["mapping"]
    expected = r"^conversation 1 \(7761a1d3\S*\): mapping missing"
    with pytest.raises(ImportFormatError, match=expected):
        chats_of(export)


def test_a_chat_without_any_id_is_refused() -> None:
    with pytest.raises(ImportFormatError, match="conversation 0: conversation_id"):
        parse_conversation({"mapping": {}}, 0)


def test_a_time_of_the_wrong_type_is_refused(export: list[dict[str, Any]]) -> None:
    export[0]["create_time"] = "2024-05-29"
    with pytest.raises(ImportFormatError, match=r"conversation 0 .*create_time"):
        chats_of(export)


def test_a_current_node_outside_the_mapping_is_refused() -> None:
    raw = {"id": "c", "mapping": {"r": node("r", None, [], None)}, "current_node": "gone"}
    with pytest.raises(ImportFormatError, match="current_node 'gone' is not in mapping"):
        parse_conversation(raw, 4)


def test_a_parent_cycle_is_refused_rather_than_followed_forever() -> None:
    mapping = {"a": node("a", "b", ["b"], "one"), "b": node("b", "a", ["a"], "two")}
    with pytest.raises(ImportFormatError, match="cycle"):
        parse_conversation({"id": "c", "mapping": mapping, "current_node": "b"}, 0)


def test_a_message_without_an_author_role_is_refused() -> None:
    broken = node("a", None, [], "hello")
    broken["message"]["author"] = {"name": None}
    with pytest.raises(ImportFormatError, match=r"node a: message\.author: role missing"):
        parse_conversation({"id": "c", "mapping": {"a": broken}, "current_node": "a"}, 2)


def test_a_non_list_parts_is_refused() -> None:
    broken = node("a", None, [], "hello")
    broken["message"]["content"]["parts"] = "hello"
    with pytest.raises(ImportFormatError, match="parts: expected a list, got str"):
        parse_conversation({"id": "c", "mapping": {"a": broken}, "current_node": "a"}, 0)
