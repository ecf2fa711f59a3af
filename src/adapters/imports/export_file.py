"""FileChatExportAdapter: ChatExportPort over export files on disk, JSON or zip."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from memlane.adapters.imports.reader import read_export
from memlane.domain.portability import ChatSource, ImportedChat
from memlane.ports.portability import ChatExportPort


class FileChatExportAdapter(ChatExportPort):
    """Streams the chats with the format's parser (reader.read_export)."""

    def read(self, path: Path, source: ChatSource) -> Iterator[ImportedChat]:
        return read_export(path, source)
