"""Conversations into segments (PMG): a user message with the assistant's reply after it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from memlane.domain.errors import InvalidMemory
from memlane.domain.graph import Edge
from memlane.domain.model import Memory, MemoryType

SEGMENT_KEY = "segment"  # metadata: the segment's position in its conversation
ROLES_KEY = "roles"
NAMES_KEY = "names"  # metadata: who spoke, when messages were named (a multi-party log)
MAX_MESSAGES = 500


class Role(StrEnum):
    USER = "user"
    ASSISTANT = "assistant"
    SYSTEM = "system"
    TOOL = "tool"


@dataclass(frozen=True, slots=True)
class Message:
    """One chat message as a host service has it."""

    role: Role
    content: str
    created_at: datetime | None = None
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Segment:
    """What becomes one memory: the messages' texts kept verbatim, each line led by its
    speaker's name or else its role, in order. `memory_type` is tool_result for a tool's
    output, else inferred."""

    content: str
    roles: tuple[Role, ...]
    created_at: datetime | None
    memory_type: MemoryType | None = None
    user_text: str = ""
    reply_text: str = ""
    names: tuple[str, ...] = field(default=())

    @property
    def replied(self) -> bool:
        """Whether the segment holds the assistant's words and none of the user's."""
        return not self.user_text and Role.ASSISTANT in self.roles


def segment_document(content: str, created_at: datetime) -> str:
    """What is embedded for a segment: its date, then its lines (they name who spoke). The
    date makes the segment findable by when; a text compared with a stored segment (an
    active context) needs it too, or the same words score well below a repeat."""
    return f"{created_at:%d %B %Y}. {content}"


def user_words(content: str, roles: object) -> str:
    """What the user said in a stored memory: a segment's user lines without their role (a
    reply is not the user's), else the whole content. `roles`: the segment's ROLES_KEY
    metadata, absent for a plain memory. A segment without a user message says nothing of
    the user ("")."""
    if not isinstance(roles, list | tuple):
        return content
    starts = tuple(f"{role.value}: " for role in Role)
    said: list[str] = []
    speaker = None
    for line in content.split("\n"):
        opening = next((s for s in starts if line.startswith(s)), None)
        if opening is not None:
            speaker, line = opening[:-2], line[len(opening):]
        if speaker == Role.USER.value:
            said.append(line)
    return "\n".join(said).strip()


def _line(message: Message) -> str:
    # A named speaker is shown by name (the role stays in the memory's metadata): the line
    # then reads as the speaker wrote it, which is also what embeds and matches best.
    return f"{message.name or message.role.value}: {message.content.strip()}"


def _check(messages: Sequence[Message]) -> None:
    if not messages:
        raise InvalidMemory("messages must not be empty")
    if len(messages) > MAX_MESSAGES:
        raise InvalidMemory(f"{len(messages)} messages given; at most {MAX_MESSAGES} per call")
    for index, message in enumerate(messages):
        if not isinstance(message.role, Role):
            raise InvalidMemory(f"message {index}: unknown role {message.role!r}")
        if not message.content or not message.content.strip():
            raise InvalidMemory(f"message {index}: content must not be empty")
        if message.created_at is not None and message.created_at.tzinfo is None:
            raise InvalidMemory(f"message {index}: created_at must carry a time zone")


def segment_messages(messages: Sequence[Message]) -> list[Segment]:
    """Segments in conversation order; every message's text is in exactly one of them.

    A user message opens a segment and the assistant replies after it join it; an assistant
    message with no user message before it stands alone, and so does a named one (a turn of
    a transcript whose speakers are named, like every named user message). A tool message is
    its own tool_result segment. A system message joins the segment it falls in (it shaped that
    exchange); before any user message it opens one."""
    _check(messages)
    segments: list[Segment] = []
    open_: list[Message] = []

    def close() -> None:
        if not open_:
            return
        users = [m.content.strip() for m in open_ if m.role is Role.USER]
        replies = [m.content.strip() for m in open_ if m.role is Role.ASSISTANT]
        segments.append(Segment(
            content="\n".join(_line(m) for m in open_),
            roles=tuple(m.role for m in open_),
            created_at=next((m.created_at for m in open_ if m.created_at), None),
            user_text="\n".join(users),
            reply_text="\n".join(replies),
            names=tuple(m.name for m in open_ if m.name),
        ))
        open_.clear()

    for message in messages:
        if message.role is Role.TOOL:
            close()
            segments.append(Segment(
                content=_line(message), roles=(Role.TOOL,), created_at=message.created_at,
                memory_type=MemoryType.TOOL_RESULT, reply_text=message.content.strip(),
                names=(message.name,) if message.name else (),
            ))
        elif message.role is Role.ASSISTANT and message.name:
            close()
            open_.append(message)
            close()
        else:
            if message.role is Role.USER and any(m.role is not Role.SYSTEM for m in open_):
                close()  # a new exchange begins
            open_.append(message)
    close()
    return segments


@dataclass(frozen=True, slots=True)
class AddedMessages:
    """What adding messages to a conversation stored: one memory per segment, in order, and
    every edge the write made (chain, causal, semantic, supersession)."""

    memories: tuple[Memory, ...]
    edges: tuple[Edge, ...]
