"""Claude's conversations.json into ImportedChat values: human turns, replies and tool results."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from memlane.adapters.imports.fields import (
    as_list,
    as_object,
    iso_time,
    optional_list,
    optional_str,
    required_list,
    required_str,
    text_parts,
)
from memlane.domain.portability import ChatRole, ChatSource, ImportedChat, ImportedMessage

SOURCE: ChatSource = "claude"
_SENDERS: dict[str, ChatRole] = {"human": "user", "assistant": "assistant"}
_USABLE_BLOCKS = frozenset({"text", "tool_result"})

Piece = tuple[ChatRole, str, str | None]  # role, text, tool name


def parse_conversations(data: object) -> Iterator[ImportedChat]:
    """Every chat of a loaded conversations.json (a list), in file order. The list itself is
    checked at once; each chat when it is reached."""
    chats = as_list(data, "conversations.json")
    return (parse_conversation(raw, position) for position, raw in enumerate(chats))


def parse_conversation(raw: object, position: int) -> ImportedChat:
    """One chat; `position` (from 0) only names it in errors."""
    where = f"conversation {position}"
    chat = as_object(raw, where)
    external_id = required_str(chat, "uuid", where)
    where = f"conversation {position} ({external_id})"
    messages = [
        imported
        for index, message in enumerate(required_list(chat, "chat_messages", where))
        for imported in _messages(message, f"{where}: message {index}")
    ]
    return ImportedChat(
        source=SOURCE,
        external_id=external_id,
        title=optional_str(chat, "name", where) or None,  # unnamed chats have name ""
        created_at=iso_time(chat, "created_at", where),
        updated_at=iso_time(chat, "updated_at", where),
        messages=tuple(messages),
    )


def _messages(raw: object, where: str) -> list[ImportedMessage]:
    """One chat message as one or more imported messages: a reply that used tools becomes its
    text, the tool's result and the text after it, in that order."""
    message = as_object(raw, where)
    role = _SENDERS.get(required_str(message, "sender", where))
    if role is None:  # senders memlane does not know are newer plumbing: skipped
        return []
    created_at = iso_time(message, "created_at", where)
    uuid = optional_str(message, "uuid", where)
    return [
        ImportedMessage(
            role=piece_role,
            content=text,
            created_at=created_at,
            name=name,
            # The first piece keeps the message's uuid so plain messages key by it alone.
            external_id=None if uuid is None else uuid if n == 0 else f"{uuid}#{n}",
        )
        for n, (piece_role, text, name) in enumerate(_pieces(message, role, where))
    ]


def _pieces(message: Mapping[str, Any], role: ChatRole, where: str) -> list[Piece]:
    """The content blocks when they hold text or tool results, else the `text` field.

    The blocks come first because only they keep a tool result in its place between the
    texts around it, while `text` flattens them (and is empty in newer exports)."""
    blocks = [
        as_object(block, f"{where}: content {index}")
        for index, block in enumerate(optional_list(message, "content", where))
    ]
    if not any(block.get("type") in _USABLE_BLOCKS for block in blocks):
        text = optional_str(message, "text", where) or ""
        return [(role, text, None)] if text.strip() else []
    pieces: list[Piece] = []
    run: list[Any] = []

    def flush() -> None:
        if joined := text_parts(run):
            pieces.append((role, joined, None))
        run.clear()

    for index, block in enumerate(blocks):
        if block.get("type") == "text":
            run.append(block.get("text"))
        elif block.get("type") == "tool_result":
            flush()
            result = _tool_result(block, f"{where}: content {index}")
            if result.strip():
                name = block.get("name")
                pieces.append(("tool", result, name if isinstance(name, str) else None))
        # tool_use is the call whose result follows; thinking, images and the like are not
        # part of what was said, so they are skipped.
    flush()
    return pieces


def _tool_result(block: Mapping[str, Any], where: str) -> str:
    content = block.get("content")
    if isinstance(content, str):
        return content
    items = [
        as_object(item, f"{where}: content") for item in optional_list(block, "content", where)
    ]
    return text_parts([item.get("text") for item in items if item.get("type") == "text"])
