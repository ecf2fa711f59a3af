"""ChatExportPort: the chats in an export file of another assistant (ChatGPT, Claude)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from pathlib import Path

from memlane.domain.portability import ChatSource, ImportedChat


class ChatExportPort(ABC):
    """Reads an export from disk; blocking, so async callers run it in a thread."""

    @abstractmethod
    def read(self, path: Path, source: ChatSource) -> Iterator[ImportedChat]:
        """The chats of conversations.json or of the export zip holding it, in file order,
        one at a time. Raises ImportFormatError (naming where) when the file is malformed,
        when reading reaches the fault."""
