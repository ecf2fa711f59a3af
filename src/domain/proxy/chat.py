"""A chat-completions request as memory reads it: roles, text parts, exchanges, tasks."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from memlane.domain.proxy.errors import InvalidChatRequest

# `developer` is OpenAI's newer name for the system role: it is read the same way.
SYSTEM_ROLES = frozenset({"system", "developer"})
# Only these parts carry text; image, audio and file parts (often base64) are never read.
TEXT_PART_TYPES = frozenset({"text", "input_text"})
# Open WebUI's background tasks (title, tags, follow-ups, search queries, autocomplete) send
# one user message opening with this line; they get no memory and teach nothing.
TASK_MARKER = "### Task:"
# Reasoning a model writes into its answer (DeepSeek-R1 and its kin behind older servers);
# an unclosed block at the end is reasoning cut off, not an answer.
_THINK = re.compile(r"<think>.*?(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """One message of the request: its role (developer read as system) and its text."""

    role: str
    text: str
    calls_tools: bool = False

    @property
    def is_system(self) -> bool:
        return self.role == "system"


def text_of(content: object) -> str:
    """The text of a message's content: a string, or the text parts of a list of parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            part["text"] for part in content
            if isinstance(part, Mapping) and part.get("type") in TEXT_PART_TYPES
            and isinstance(part.get("text"), str)
        )
    return ""


def without_reasoning(text: str) -> str:
    """The text with `<think>` blocks taken out."""
    return _THINK.sub("", text).strip() if "<think" in text.lower() else text.strip()


def read_messages(body: object) -> list[ChatMessage]:
    """The request's messages; InvalidChatRequest when the body is not a chat request."""
    if not isinstance(body, Mapping):
        raise InvalidChatRequest("the body must be a JSON object")
    raw = body.get("messages")
    if not isinstance(raw, list) or not raw:
        raise InvalidChatRequest("'messages' must be a non-empty array")
    messages = []
    for index, item in enumerate(raw):
        if not isinstance(item, Mapping) or not isinstance(item.get("role"), str):
            raise InvalidChatRequest(f"messages[{index}] must be an object with a 'role'")
        role = item["role"].strip().lower()
        role = "system" if role in SYSTEM_ROLES else role
        text = text_of(item.get("content"))
        if role == "assistant":
            text = without_reasoning(text)
        messages.append(ChatMessage(role, text, bool(item.get("tool_calls"))))
    return messages


def streams(body: Mapping[str, Any]) -> bool:
    return body.get("stream") is True


def is_background_task(messages: Sequence[ChatMessage]) -> bool:
    """Whether the request is one of Open WebUI's background tasks (a `### Task:` prompt)."""
    last = last_user(messages)
    return last is not None and messages[last].text.lstrip().startswith(TASK_MARKER)


def last_user(messages: Sequence[ChatMessage]) -> int | None:
    """The index of the last user message, or None."""
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].role == "user":
            return index
    return None


def system_text(messages: Sequence[ChatMessage]) -> str:
    return "\n".join(m.text for m in messages if m.is_system)


@dataclass(frozen=True, slots=True)
class Exchange:
    """A user message and the assistant's text reply after it (tool rounds left out)."""

    user: str
    reply: str

    def as_segment(self) -> str:
        """As the conversation route stores it (domain.segments), so restatements match."""
        lines = [f"user: {self.user.strip()}"]
        if self.reply.strip():
            lines.append(f"assistant: {self.reply.strip()}")
        return "\n".join(lines)


def exchanges(messages: Sequence[ChatMessage]) -> list[Exchange]:
    """The request's exchanges in order: each user message with the assistant text after it.

    Tool messages and assistant messages that only call tools add nothing; system messages
    are not part of an exchange."""
    found: list[Exchange] = []
    user: str | None = None
    replies: list[str] = []
    for message in messages:
        if message.role == "user":
            if user is not None:
                found.append(Exchange(user, "\n".join(replies)))
            user, replies = message.text, []
        elif message.role == "assistant" and user is not None and message.text:
            replies.append(message.text)
    if user is not None:
        found.append(Exchange(user, "\n".join(replies)))
    return [e for e in found if e.user.strip()]


def with_memory(messages: Sequence[Any], block: str) -> list[Any]:
    """The request's messages with `block` added: appended to the first system (or developer)
    message, as text or as one more text part, or as a system message in front when there is
    none (or its content is neither). Every other message is the same object it was."""
    result = list(messages)
    if not block:
        return result
    for index, message in enumerate(result):
        if not isinstance(message, Mapping):
            continue
        role = message.get("role")
        if not isinstance(role, str) or role.strip().lower() not in SYSTEM_ROLES:
            continue
        content = message.get("content")
        if isinstance(content, str):
            merged: Any = f"{content.rstrip()}\n\n{block}" if content.strip() else block
        elif isinstance(content, list):
            merged = [*content, {"type": "text", "text": block}]
        elif content is None:
            merged = block
        else:
            break
        result[index] = {**message, "content": merged}
        return result
    return [{"role": "system", "content": block}, *result]
