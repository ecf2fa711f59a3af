"""The items of a top-level JSON list, decoded one at a time from a text stream (stdlib only)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import TextIO

from memlane.domain.portability import ImportFormatError

CHUNK_CHARS = 1 << 20
_NON_SPACE = re.compile(r"[^ \t\n\r]")  # JSON's whitespace, exactly
_DECODER = json.JSONDecoder()


class _Buffer:
    """A window on the stream holding at most the item being decoded plus one read ahead, so
    memory follows the largest conversation, not the file (exports run to gigabytes)."""

    def __init__(self, stream: TextIO, chunk_chars: int) -> None:
        self._stream = stream
        self._chunk = chunk_chars
        self.text = ""
        self.pos = 0
        self.eof = False

    def more(self, chars: int) -> bool:
        """Append up to `chars` characters, dropping what was consumed; False at the end."""
        if self.eof:
            return False
        try:
            data = self._stream.read(chars)
        except UnicodeDecodeError as error:
            raise ImportFormatError(f"conversations.json is not UTF-8 text: {error}") from None
        if not data:
            self.eof = True
            return False
        self.text = self.text[self.pos:] + data
        self.pos = 0
        return True

    def peek(self) -> str:
        """The next character that is not whitespace, not consumed; '' at the end."""
        while True:
            found = _NON_SPACE.search(self.text, self.pos)
            if found:
                self.pos = found.start()
                return self.text[self.pos]
            self.pos = len(self.text)
            if not self.more(self._chunk):
                return ""

    def value(self, where: str) -> object:
        """Decode the value at pos, reading more until it is complete."""
        chars = self._chunk
        while True:
            try:
                value, end = _DECODER.raw_decode(self.text, self.pos)
            except json.JSONDecodeError as error:
                if self.eof:
                    raise ImportFormatError(
                        f"conversations.json: {where}: invalid JSON: {error.msg}"
                    ) from None
            else:
                # A value ending exactly at the buffer's end may be cut short (a number):
                # trust it only with a character after it or at the end of the stream.
                if end < len(self.text) or self.eof:
                    self.pos = end
                    return value
            if self.more(chars):
                chars *= 2  # doubling keeps a huge conversation's re-decoding linear overall


def iter_json_list(stream: TextIO, *, chunk_chars: int = CHUNK_CHARS) -> Iterator[object]:
    """Each item of the JSON list the stream holds, as soon as it is read. Errors in the file
    surface only when reading reaches them, after the items before them were yielded."""
    buffer = _Buffer(stream, chunk_chars)
    if buffer.peek() != "[":
        raise ImportFormatError("conversations.json: expected a list of conversations")
    buffer.pos += 1
    if buffer.peek() == "]":
        buffer.pos += 1
    else:
        count = 0
        while True:
            if buffer.peek() == "":
                raise ImportFormatError(f"conversations.json: ends before conversation {count}")
            yield buffer.value(f"conversation {count}")
            count += 1
            separator = buffer.peek()
            buffer.pos += 1
            if separator == "]":
                break
            if separator != ",":
                raise ImportFormatError(
                    f"conversations.json: expected ',' or ']' after conversation {count - 1}"
                )
    if buffer.peek() != "":
        raise ImportFormatError("conversations.json: unexpected data after the list")
