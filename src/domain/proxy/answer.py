"""The model's answer read from what the upstream sent: one JSON body, or streamed events."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from memlane.domain.proxy.chat import text_of, without_reasoning

# What an answer may hold in memory while it is assembled: more is never learned whole
# (a segment is at most 32 KiB), so the rest is not kept.
MAX_ANSWER_CHARS = 64 * 1024


@dataclass(frozen=True, slots=True)
class Answer:
    """The first choice's text (reasoning out), how it ended, and whether it can be learned."""

    text: str
    finish_reason: str | None
    calls_tools: bool = False
    failed: bool = False

    @property
    def learnable(self) -> bool:
        """A complete text answer: not a tool round, not broken off by an error."""
        return (
            not self.failed and not self.calls_tools and self.finish_reason != "tool_calls"
            and bool(self.text)
        )


def answer_from_json(body: bytes) -> Answer:
    """A non-streamed chat completion's first choice."""
    try:
        parsed = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return Answer("", None, failed=True)
    if not isinstance(parsed, Mapping) or "error" in parsed:
        return Answer("", None, failed=True)
    choice = _first_choice(parsed.get("choices"))
    if choice is None:
        return Answer("", None, failed=True)
    message = choice.get("message")
    message = message if isinstance(message, Mapping) else {}
    return Answer(
        without_reasoning(text_of(message.get("content"))[:MAX_ANSWER_CHARS]),
        _reason(choice),
        calls_tools=bool(message.get("tool_calls")),
    )


class StreamAssembler:
    """Feeds on the raw bytes of a server-sent event stream as they pass to the client and
    keeps the first choice's content deltas (reasoning deltas are a field it never reads)."""

    def __init__(self) -> None:
        self._events = EventSplitter()
        self._parts: list[str] = []
        self._chars = 0
        self._finish: str | None = None
        self._tools = False
        self._failed = False
        self._done = False

    def feed(self, chunk: bytes) -> None:
        for data in self._events.feed(chunk):
            self._event(data)
        if self._events.overflowed:
            self._failed = True  # an event too large to read: the answer is not learned

    def _event(self, data: str) -> None:
        if data.strip() == "[DONE]":
            self._done = True
            return
        try:
            event = json.loads(data)
        except ValueError:
            return  # not ours to judge; the client gets it as it came
        if not isinstance(event, Mapping):
            return
        if "error" in event:
            self._failed = True
            return
        # The include_usage final chunk has empty choices: nothing to read.
        choice = _first_choice(event.get("choices"))
        if choice is None:
            return
        delta = choice.get("delta")
        if isinstance(delta, Mapping):
            content = delta.get("content")
            if isinstance(content, str) and self._chars < MAX_ANSWER_CHARS:
                self._parts.append(content)
                self._chars += len(content)
            if delta.get("tool_calls"):
                self._tools = True
        self._finish = _reason(choice) or self._finish

    def answer(self) -> Answer:
        """The answer as assembled; one that never finished (no finish_reason, no [DONE])
        counts as failed."""
        finished = self._finish is not None or self._done
        return Answer(
            without_reasoning("".join(self._parts)[:MAX_ANSWER_CHARS]), self._finish,
            calls_tools=self._tools, failed=self._failed or not finished,
        )


def _first_choice(choices: Any) -> Mapping[str, Any] | None:
    """Choice index 0 (with n > 1 the first is the one learned), else the first listed."""
    if not isinstance(choices, list) or not choices:
        return None
    mappings = [c for c in choices if isinstance(c, Mapping)]
    for choice in mappings:
        if choice.get("index", 0) == 0:
            return choice
    return None


def _reason(choice: Mapping[str, Any]) -> str | None:
    reason = choice.get("finish_reason")
    return reason if isinstance(reason, str) else None


# An event larger than this is not read (the bytes still pass to the client untouched).
MAX_EVENT_BYTES = 1024 * 1024


class EventSplitter:
    """Incremental: `feed` takes any slice of the stream and returns the data of the events
    it completed. Lines are split on LF (CR before it dropped), events on a blank line."""

    def __init__(self, max_event_bytes: int = MAX_EVENT_BYTES) -> None:
        self._pending = b""
        self._data: list[bytes] = []
        self._max = max_event_bytes
        self.overflowed = False

    def feed(self, chunk: bytes) -> list[str]:
        if self.overflowed:
            return []
        self._pending += chunk
        done: list[str] = []
        while True:
            end = self._pending.find(b"\n")
            if end < 0:
                break
            line = self._pending[:end].rstrip(b"\r")
            self._pending = self._pending[end + 1:]
            if not line:
                if self._data:
                    done.append(b"\n".join(self._data).decode("utf-8", "replace"))
                    self._data = []
                continue
            if line.startswith(b"data:"):
                value = line[5:]
                self._data.append(value[1:] if value.startswith(b" ") else value)
        if len(self._pending) > self._max or sum(len(d) for d in self._data) > self._max:
            self.overflowed = True
            self._pending, self._data = b"", []
        return done
