"""Server-sent events split from bytes as they arrive: the `data:` of each complete event."""

from __future__ import annotations

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
