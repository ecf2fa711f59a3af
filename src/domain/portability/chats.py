"""Chats imported from other assistants' exports, with the stable ids that make re-import safe."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal, get_args

from memlane.domain.errors import InvalidMemory

ChatSource = Literal["chatgpt", "claude"]
ChatRole = Literal["user", "assistant", "system", "tool"]
CHAT_SOURCES: frozenset[str] = frozenset(get_args(ChatSource))
CHAT_ROLES: frozenset[str] = frozenset(get_args(ChatRole))

# Conversation ids travel in URL paths and are capped at 200 characters, so only short, plain
# external ids are kept readable; anything else is replaced by a digest of itself.
_PLAIN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
# Bumping the version would re-key every imported message: only for a change of meaning.
_KEY_NAMESPACE = "memlane-import/v1"
_SEPARATOR = "\x1f"  # cannot occur in a JSON-sourced id without escaping, so parts never blur


class ImportFormatError(InvalidMemory):
    """An export file memlane cannot read; the message says where (e.g. 'conversation 3: ...')."""


def _check_time(value: datetime | None, what: str) -> None:
    # Naive or local times would make the same export land at different instants per machine.
    if value is not None and value.utcoffset() != timedelta(0):
        raise ImportFormatError(f"{what} must be an aware UTC datetime, got {value!r}")


@dataclass(frozen=True, slots=True)
class ImportedMessage:
    """One message of an imported chat, its text verbatim; `external_id` is the export's own id
    for it (None when the export has none), used only to key the message for re-import."""

    role: ChatRole
    content: str
    created_at: datetime | None = None
    name: str | None = None
    external_id: str | None = None

    def __post_init__(self) -> None:
        if self.role not in CHAT_ROLES:
            raise ImportFormatError(f"unknown message role {self.role!r}")
        if not isinstance(self.content, str) or not self.content.strip():
            raise ImportFormatError("message content must be non-empty text")
        _check_time(self.created_at, "message created_at")


@dataclass(frozen=True, slots=True)
class ImportedChat:
    """One chat of an export: the messages the user last saw, in order."""

    source: ChatSource
    external_id: str
    title: str | None
    created_at: datetime | None
    updated_at: datetime | None
    messages: tuple[ImportedMessage, ...]

    def __post_init__(self) -> None:
        if self.source not in CHAT_SOURCES:
            raise ImportFormatError(f"unknown chat source {self.source!r}")
        if not isinstance(self.external_id, str) or not self.external_id.strip():
            raise ImportFormatError("a chat needs a non-empty external id")
        _check_time(self.created_at, "chat created_at")
        _check_time(self.updated_at, "chat updated_at")

    @property
    def conversation_id(self) -> str:
        return conversation_id_for(self.source, self.external_id)


def conversation_id_for(source: ChatSource, external_id: str) -> str:
    """memlane's conversation id for an imported chat: the same chat always maps to the same
    conversation, so importing a file twice adds nothing new. 'chatgpt:<id>' when the id is
    plain, else 'chatgpt:sha256-<32 hex>' of it."""
    if source not in CHAT_SOURCES:
        raise ImportFormatError(f"unknown chat source {source!r}")
    if not external_id:
        raise ImportFormatError("a chat needs a non-empty external id")
    if _PLAIN_ID.fullmatch(external_id):
        return f"{source}:{external_id}"
    digest = hashlib.sha256(external_id.encode("utf-8")).hexdigest()[:32]
    return f"{source}:sha256-{digest}"


def message_key(source: ChatSource, chat_id: str, message_ref: str | int) -> str:
    """A stable 64-hex key for one message: its export id, or its position when it has none.
    Ids and positions are tagged differently so message id '3' never equals position 3."""
    ref = f"id:{message_ref}" if isinstance(message_ref, str) else f"at:{message_ref}"
    material = _SEPARATOR.join((_KEY_NAMESPACE, source, chat_id, ref))
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


def message_keys(chat: ImportedChat) -> tuple[str, ...]:
    """The key of each of the chat's messages, in order, all distinct.

    A repeated export id (a malformed export, or one message split into several) gets its
    occurrence number appended, so two different messages never share a key."""
    used: set[str] = set()
    keys: list[str] = []
    for index, message in enumerate(chat.messages):
        if message.external_id is None:
            keys.append(message_key(chat.source, chat.external_id, index))
            continue
        ref, count = message.external_id, 0
        while ref in used:  # a loop, not one suffix: 'x#1' may itself be an id in the export
            count += 1
            ref = f"{message.external_id}#{count}"
        used.add(ref)
        keys.append(message_key(chat.source, chat.external_id, ref))
    return tuple(keys)
