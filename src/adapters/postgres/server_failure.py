"""Why the embedded PostgreSQL did not start, in one line, and whether trying again can help."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

# Causes that no retry fixes: a person has to free space or mend permissions. Matched against
# pg_ctl's error output and the server log's FATAL/PANIC lines (PostgreSQL's own wording).
_PERSISTENT = (
    "No space left on device",
    "Disk quota exceeded",
    "Read-only file system",
    "Permission denied",
    "has wrong ownership",
    "has invalid permissions",
    "incompatible with server",
    "is not a database cluster directory",
    "could not find the database system",
)
# Causes that pass: backends of the killed postmaster still attached to its shared memory, a
# lock file the dead postmaster left, a server still shutting down.
_TRANSIENT = (
    "pre-existing shared memory block",
    "is still in use",
    "lock file",
    "another server might be running",
    "shutting down",
    "starting up",
    "not reaped yet",
)
_WORDS = ("FATAL:", "PANIC:", "error:", "cannot create", "could not")
_MAX_CAUSE_CHARS = 300


@dataclass(frozen=True, slots=True)
class StartFailure:
    """A failed start: its cause in one line, and whether it is one no retry can fix."""

    cause: str
    persistent: bool


def classify(lines: list[str]) -> StartFailure:
    """The most telling line of a failed start (pg_ctl's errors first, then the server log's
    FATAL and PANIC lines), and whether it names a persistent cause."""
    telling = [line.strip() for line in lines if any(w in line for w in _WORDS)]
    persistent = next((line for line in telling if any(p in line for p in _PERSISTENT)), None)
    if persistent is not None:
        return StartFailure(_short(persistent), True)
    transient = next((line for line in telling if any(t in line for t in _TRANSIENT)), None)
    chosen = transient or (telling[0] if telling else "pg_ctl failed without a message")
    return StartFailure(_short(chosen), False)


def _short(line: str) -> str:
    # Drop a log line's time and pid ("2026-... UTC [123] FATAL: ..."); one line at most.
    for word in ("FATAL:", "PANIC:"):
        if word in line:
            line = line[line.index(word):]
    return line if len(line) <= _MAX_CAUSE_CHARS else line[: _MAX_CAUSE_CHARS - 1] + "…"


def log_size(log_path: Path) -> int:
    try:
        return log_path.stat().st_size
    except OSError:
        return 0


def log_lines_since(log_path: Path, offset: int) -> list[str]:
    """The server log's lines written since `offset` (what this start wrote, not older news)."""
    try:
        with open(log_path, "rb") as handle:
            handle.seek(offset)
            return handle.read(256 * 1024).decode("utf-8", "replace").splitlines()
    except OSError:
        return []


class _PgserverErrors(logging.Handler):
    """pgserver logs a failed pg_ctl with its whole stderr and then dumps the entire server
    log (hundreds of lines) at ERROR. memlane says the cause in one line instead: the records
    are kept here, per thread, for the start that is under way, and never printed."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self._collecting: dict[int, list[str]] = {}
        self._guard = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        with self._guard:
            lines = self._collecting.get(threading.get_ident())
            if lines is not None:
                lines.extend(_stderr_of(record.getMessage()))

    @contextmanager
    def collecting(self) -> Iterator[list[str]]:
        lines: list[str] = []
        with self._guard:
            self._collecting[threading.get_ident()] = lines
        try:
            yield lines
        finally:
            with self._guard:
                self._collecting.pop(threading.get_ident(), None)


def _stderr_of(message: str) -> list[str]:
    # "Failed postgres command ...\nstderr:\n<lines>\n---\n"; the log dump that follows it is
    # read from the log file itself (only what this start wrote).
    if "stderr:\n" not in message:
        return []
    return message.split("stderr:\n", 1)[1].split("\n---", 1)[0].splitlines()


PGSERVER_ERRORS = _PgserverErrors()


def quiet_pgserver(logger: logging.Logger) -> None:
    """Route pgserver's messages to the collector alone (idempotent)."""
    if PGSERVER_ERRORS not in logger.handlers:
        logger.addHandler(PGSERVER_ERRORS)
    logger.propagate = False
    logger.setLevel(logging.ERROR)


@contextmanager
def start_failures(log_path: Path) -> Iterator[list[str]]:
    """Within the block, pgserver's error output is collected (not printed); on the way out
    the lines the server log gained are added, so `classify` sees the whole story."""
    offset = log_size(log_path)
    with PGSERVER_ERRORS.collecting() as lines:
        try:
            yield lines
        finally:
            lines.extend(log_lines_since(log_path, offset))
