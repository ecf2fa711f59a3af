"""Reading an export from disk: conversations.json itself, or the export .zip that holds it."""

from __future__ import annotations

import io
import os
import zipfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path, PurePosixPath
from typing import Literal, TextIO, get_args

from memlane.adapters.imports import chatgpt, claude
from memlane.adapters.imports.fields import as_list
from memlane.adapters.imports.stream import iter_json_list
from memlane.domain.portability import ImportedChat, ImportFormatError

ExportFormat = Literal["chatgpt", "claude"]
EXPORT_FORMATS: tuple[str, ...] = get_args(ExportFormat)
CONVERSATIONS_FILE = "conversations.json"

_PARSERS: dict[str, Callable[[object, int], ImportedChat]] = {
    "chatgpt": chatgpt.parse_conversation,
    "claude": claude.parse_conversation,
}


def _parser(format: str) -> Callable[[object, int], ImportedChat]:
    if format not in _PARSERS:
        raise ImportFormatError(
            f"unknown export format {format!r}; expected one of {', '.join(EXPORT_FORMATS)}"
        )
    return _PARSERS[format]


def parse_export(data: object, format: ExportFormat) -> Iterator[ImportedChat]:
    """The chats of an already-loaded conversations.json, in file order."""
    parse = _parser(format)
    chats = as_list(data, "conversations.json")  # checked now, not at the first next()
    return (parse(raw, position) for position, raw in enumerate(chats))


def read_export(path: str | os.PathLike[str], format: ExportFormat) -> Iterator[ImportedChat]:
    """The chats of an export file, one at a time, in file order.

    `path` is conversations.json or the .zip the service sends (found anywhere inside it).
    The JSON is decoded one conversation at a time (stream.iter_json_list), never loaded
    whole, so memory follows the largest chat rather than the export. A malformed chat
    raises ImportFormatError when it is reached, after the chats before it were yielded:
    callers wanting all-or-nothing should collect the chats before writing any."""
    return _read(Path(path), _parser(format))


def _read(path: Path, parse: Callable[[object, int], ImportedChat]) -> Iterator[ImportedChat]:
    try:
        with ExitStack() as stack:
            text = _open_text(path, stack)
            for position, raw in enumerate(iter_json_list(text)):
                yield parse(raw, position)
    except zipfile.BadZipFile as error:  # a truncated download, typically
        raise ImportFormatError(f"{path.name}: damaged zip: {error}") from None


def _open_text(path: Path, stack: ExitStack) -> TextIO:
    """The export's conversations.json as text, closed (with its zip) when `stack` closes."""
    # utf-8-sig: a byte order mark, as some editors add on re-saving, is not content.
    if not zipfile.is_zipfile(path):
        return stack.enter_context(path.open(encoding="utf-8-sig"))
    archive = stack.enter_context(zipfile.ZipFile(path))
    member = archive.open(_conversations_member(archive, path.name))
    return stack.enter_context(io.TextIOWrapper(member, encoding="utf-8-sig"))


def _conversations_member(archive: zipfile.ZipFile, name: str) -> zipfile.ZipInfo:
    """The shallowest conversations.json in the zip, skipping macOS resource-fork copies."""
    candidates = [
        info for info in archive.infolist()
        if not info.is_dir()
        and PurePosixPath(info.filename).name == CONVERSATIONS_FILE
        and not info.filename.startswith("__MACOSX/")
    ]
    if not candidates:
        raise ImportFormatError(f"{name}: no {CONVERSATIONS_FILE} in the zip")
    return min(candidates, key=lambda info: (info.filename.count("/"), info.filename))
