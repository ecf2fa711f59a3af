"""ChatGPT's conversations.json into ImportedChat values, following the branch the user last saw."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from memlane.adapters.imports.fields import (
    as_list,
    as_object,
    epoch_time,
    fail,
    optional_list,
    optional_str,
    required_object,
    required_str,
    text_parts,
)
from memlane.domain.portability import ChatRole, ChatSource, ImportedChat, ImportedMessage

SOURCE: ChatSource = "chatgpt"
_ROLES: dict[str, ChatRole] = {
    "user": "user", "assistant": "assistant", "system": "system", "tool": "tool",
}
# Output of a tool (search results, code output, quoted pages) is a tool message whoever the
# export names as its author.
_TOOL_CONTENT = frozenset({
    "tether_browsing_display", "tether_quote", "execution_output", "system_error",
})
# Context the conversation never shows: custom instructions, saved memories and the model's
# hidden reasoning. Importing them would put the same boilerplate into every conversation.
_SKIPPED_CONTENT = frozenset({
    "user_editable_context", "model_editable_context", "thoughts", "reasoning_recap",
})


def parse_conversations(data: object) -> Iterator[ImportedChat]:
    """Every chat of a loaded conversations.json (a list), in file order. The list itself is
    checked at once; each chat when it is reached."""
    chats = as_list(data, "conversations.json")
    return (parse_conversation(raw, position) for position, raw in enumerate(chats))


def parse_conversation(raw: object, position: int) -> ImportedChat:
    """One chat; `position` (from 0) only names it in errors."""
    where = f"conversation {position}"
    chat = as_object(raw, where)
    external_id = chat.get("conversation_id") or chat.get("id")
    if not isinstance(external_id, str):
        fail(where, "conversation_id (or id) must be a non-empty string")
    where = f"conversation {position} ({external_id})"
    mapping = required_object(chat, "mapping", where)
    branch = _current_branch(chat, mapping, where)
    messages = (_message(mapping, node_id, where) for node_id in branch)
    return ImportedChat(
        source=SOURCE,
        external_id=external_id,
        title=optional_str(chat, "title", where),
        created_at=epoch_time(chat, "create_time", where),
        updated_at=epoch_time(chat, "update_time", where),
        messages=tuple(m for m in messages if m is not None),
    )


def _current_branch(chat: Mapping[str, Any], mapping: Mapping[str, Any], where: str) -> list[str]:
    """Node ids from the root to current_node. Edits and regenerations leave side branches in
    the mapping; only this path is what the user last saw, so only it is imported."""
    leaf = chat.get("current_node")
    if leaf is None:
        leaf = _latest_leaf(mapping, where)
        if leaf is None:
            return []
    if not isinstance(leaf, str) or leaf not in mapping:
        fail(where, f"current_node {leaf!r} is not in mapping")
    path: list[str] = []
    seen: set[str] = set()
    node_id: str | None = leaf
    while node_id is not None:
        if node_id in seen:  # a corrupt export must not hang the import
            fail(where, f"node {node_id}: parent links form a cycle")
        seen.add(node_id)
        path.append(node_id)
        node = as_object(mapping[node_id], f"{where}: node {node_id}")
        parent = optional_str(node, "parent", f"{where}: node {node_id}")
        if parent is not None and parent not in mapping:
            fail(where, f"node {node_id}: parent {parent} is not in mapping")
        node_id = parent
    path.reverse()
    return path


def _latest_leaf(mapping: Mapping[str, Any], where: str) -> str | None:
    """Without current_node (older exports), the leaf written last stands in for it: it is the
    branch a regeneration or an edit most recently produced."""
    best: tuple[float, int, str] | None = None
    for order, (node_id, raw) in enumerate(mapping.items()):
        node = as_object(raw, f"{where}: node {node_id}")
        if optional_list(node, "children", f"{where}: node {node_id}"):
            continue
        message = node.get("message")
        created = epoch_time(message, "create_time", where) if isinstance(message, dict) else None
        rank = (created.timestamp() if created else float("-inf"), order, node_id)
        if best is None or rank > best:
            best = rank
    return None if best is None else best[2]


def _message(mapping: Mapping[str, Any], node_id: str, where: str) -> ImportedMessage | None:
    """The node's message as the conversation shows it, or None for what it does not show."""
    where = f"{where}: node {node_id}"
    raw = as_object(mapping[node_id], where).get("message")
    if raw is None:  # the root and some placeholders carry no message
        return None
    message = as_object(raw, f"{where}: message")
    author = required_object(message, "author", f"{where}: message")
    role = _ROLES.get(required_str(author, "role", f"{where}: message.author"))
    metadata = message.get("metadata")
    hidden = isinstance(metadata, dict) and metadata.get("is_visually_hidden_from_conversation")
    if role is None or hidden:  # roles memlane does not know are newer plumbing: skipped
        return None
    content = required_object(message, "content", f"{where}: message")
    content_type = optional_str(content, "content_type", f"{where}: message.content")
    if content_type in _SKIPPED_CONTENT:
        return None
    # An assistant message addressed to a tool is a call (a search query, code to run, an
    # image prompt); the user saw its result and the reply, which are imported.
    if role == "assistant" and message.get("recipient", "all") not in (None, "all"):
        return None
    text = _text(content, f"{where}: message.content")
    if not text.strip():
        return None
    message_id = message.get("id")
    return ImportedMessage(
        role="tool" if content_type in _TOOL_CONTENT else role,
        content=text,
        created_at=epoch_time(message, "create_time", f"{where}: message"),
        name=optional_str(author, "name", f"{where}: message.author"),
        external_id=message_id if isinstance(message_id, str) and message_id else node_id,
    )


def _text(content: Mapping[str, Any], where: str) -> str:
    if "parts" in content:
        # Voice messages keep their transcript; images and files have no text to keep.
        parts = [
            p.get("text") if isinstance(p, dict) and p.get("content_type") == "audio_transcription"
            else p
            for p in as_list(content["parts"], f"{where}: parts")
        ]
        return text_parts(parts)
    for key in ("text", "result"):  # code, quotes and execution output; browsing results
        value = content.get(key)
        if isinstance(value, str):
            return value
    return ""
