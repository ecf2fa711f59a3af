"""Planning a chat import: which messages are new, in calls of whole exchanges that fit."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, fields, replace

from memlane.domain.errors import MemlaneError
from memlane.domain.memories import MAX_MESSAGES, Message, Role, segment_messages
from memlane.domain.portability.chats import ImportedChat, message_keys

IMPORT_ACTOR = "system:import"  # who an audit trail names for what an import wrote
TITLE_KEY = "conversation_title"  # metadata: the chat's title (a topic of its memories)
SOURCE_KEY = "import_source"  # metadata: chatgpt or claude
TRUNCATION_MARK = " […]"


@dataclass(frozen=True, slots=True)
class ImportCall:
    """One add_messages call: messages of one chat and the keys recorded once it is stored."""

    conversation_id: str
    messages: tuple[Message, ...]
    keys: tuple[str, ...]
    shortened: int = 0  # messages cut to fit one memory


@dataclass(frozen=True, slots=True)
class ImportSummary:
    """What an import did; `messages_known` were imported before and skipped."""

    chats: int = 0
    chats_added: int = 0
    messages_added: int = 0
    messages_known: int = 0
    messages_shortened: int = 0
    memories_added: int = 0

    def __add__(self, other: ImportSummary) -> ImportSummary:
        return ImportSummary(
            *(getattr(self, f.name) + getattr(other, f.name) for f in fields(self))
        )


def keyed_messages(chat: ImportedChat) -> list[tuple[str, Message]]:
    """The chat's messages as conversation messages, each with its stable key."""
    return [
        (key, Message(Role(m.role), m.content, m.created_at, m.name))
        for key, m in zip(message_keys(chat), chat.messages, strict=True)
    ]


def plan_chat(
    conversation_id: str,
    keyed: Sequence[tuple[str, Message]],
    known: Collection[str],
    *,
    max_content_bytes: int,
    max_messages: int = MAX_MESSAGES,
) -> list[ImportCall]:
    """The calls that add the messages whose key is not `known`, in order.

    A call ends before a user message (an exchange is never cut in two) unless one exchange
    alone is longer than `max_messages`. A message is shortened only when its exchange would
    not fit in one memory of `max_content_bytes`."""
    fresh = [(key, message) for key, message in keyed if key not in known]
    calls: list[ImportCall] = []
    start = 0
    while start < len(fresh):
        end = min(start + max_messages, len(fresh))
        if end < len(fresh):
            cut = max(
                (i for i in range(start + 1, end + 1) if fresh[i][1].role is Role.USER),
                default=end,
            )
            end = cut
        part = fresh[start:end]
        original = [m for _, m in part]
        messages = fit_exchanges(original, max_content_bytes)
        shortened = sum(a.content != b.content for a, b in zip(original, messages, strict=True))
        calls.append(ImportCall(
            conversation_id, tuple(messages), tuple(k for k, _ in part), shortened
        ))
        start = end
    return calls


def fit_exchanges(messages: Sequence[Message], max_content_bytes: int) -> list[Message]:
    """The messages, the longest of an exchange shortened until its memory fits the limit."""
    fitted: list[Message] = []
    at = 0
    for segment in segment_messages(messages):
        group = list(messages[at : at + len(segment.roles)])
        at += len(segment.roles)
        overflow = _size(segment.content) - max_content_bytes
        fitted.extend(_shortened(group, overflow) if overflow > 0 else group)
    return fitted


def _shortened(group: list[Message], overflow_bytes: int) -> list[Message]:
    """Cut `overflow_bytes` (and room for the marks) off the longest texts, largest first."""
    sizes = [_size(m.content.strip()) for m in group]
    mark = _size(TRUNCATION_MARK)
    # Lower a common ceiling until the bytes above it cover the overflow: the short messages
    # (usually the question) stay whole, the long ones (an answer with code) give way.
    ceiling = max(sizes)
    while ceiling > 0:
        excess = sum(max(0, s - ceiling) for s in sizes)
        marks = mark * sum(s > ceiling for s in sizes)
        if excess >= overflow_bytes + marks:
            break
        ceiling -= max(1, ceiling // 64)
    return [
        replace(m, content=_cut(m.content.strip(), max(1, ceiling)) + TRUNCATION_MARK)
        if size > ceiling else m
        for m, size in zip(group, sizes, strict=True)
    ]


def _cut(text: str, max_bytes: int) -> str:
    return text.encode("utf-8")[:max_bytes].decode("utf-8", errors="ignore").rstrip() or "…"


def _size(text: str) -> int:
    return len(text.encode("utf-8"))



class ImportInProgress(MemlaneError):
    """Another import for the same owner is running; it would race this one."""
