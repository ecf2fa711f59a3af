"""Which conversation a proxied exchange belongs to, and which turn of it it answers.

A conversation is named by the client (`X-Conversation-Id`), by Open WebUI's chat id where
the key trusts its headers, or else derived: a keyed hash of the owner, the system prompt
and the first exchange (the first user message and the first answer). The first answer is
part of it because two chats that open alike ("hi") part ways there, and every later request
carries it back in its history. A turn is the request's messages up to its last user
message: a regenerated answer asks the same turn again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from memlane.domain.proxy.chat import ChatMessage, exchanges, last_user, system_text
from memlane.domain.text_rules import has_nul, is_blank

MAX_CONVERSATION_ID_CHARS = 200
DERIVED_PREFIX = "chat-"
DIGEST_CHARS = 40
_SEPARATOR = "\x1f"

# A keyed digest (hex) of a text: the composition gives it the installation's key.
KeyedDigest = Callable[[str], str]


def named_id(value: str | None, digest: KeyedDigest) -> str | None:
    """The conversation a client named: its id as given when it is a usable id (visible, no
    NUL, at most 200 characters), else a stable keyed digest of it; None when none is named."""
    if value is None or not value.strip():
        return None
    cleaned = value.strip()
    if len(cleaned) <= MAX_CONVERSATION_ID_CHARS and not has_nul(cleaned) and not is_blank(
        cleaned
    ):
        return cleaned
    return DERIVED_PREFIX + digest("named" + _SEPARATOR + cleaned)[:DIGEST_CHARS]


def derived_id(
    user_id: str, messages: Sequence[ChatMessage], answer: str | None, digest: KeyedDigest
) -> str | None:
    """The derived id: the owner, the system prompt, the first user message and the first
    answer (`answer` when the request has no assistant reply yet: its own answer is the
    first). None when the first answer is not known (the request's answer is not in yet)."""
    found = exchanges(messages)
    if not found:
        return None
    first = found[0]
    reply = first.reply if (first.reply or len(found) > 1) else answer
    if reply is None:
        return None
    material = _SEPARATOR.join(
        ("conversation", user_id, system_text(messages), first.user.strip(), reply.strip())
    )
    return DERIVED_PREFIX + digest(material)[:DIGEST_CHARS]


def turn_key(messages: Sequence[ChatMessage], digest: KeyedDigest) -> str:
    """The turn a request asks: its user and assistant texts up to the last user message.
    A regenerated answer has the same key; the next question has another."""
    end = last_user(messages)
    asked = messages[: (end + 1) if end is not None else len(messages)]
    material = _SEPARATOR.join(
        f"{m.role}:{m.text.strip()}" for m in asked if m.role in ("user", "assistant")
    )
    return digest("turn" + _SEPARATOR + material)[:DIGEST_CHARS]
