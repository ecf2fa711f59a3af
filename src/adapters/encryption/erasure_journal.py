"""FileErasureJournal: destroyed data keys as keyed hashes, appended and fsynced, in plain files."""

from __future__ import annotations

import asyncio
import fcntl
import os
import re
import socket
from pathlib import Path

from memlane.adapters.encryption.keyfile import fsync_dir, load_key, load_or_create_key
from memlane.domain.errors import ConfigurationError
from memlane.domain.security import (
    JournalContents,
    KeyRef,
    erasure_digest,
    journal_key_id,
    journal_line,
    parse_journal,
)
from memlane.ports.security import ErasureJournalPort

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def _host_name() -> str:
    return _UNSAFE.sub("-", socket.gethostname()).strip(".-") or "host"


class FileErasureJournal(ErasureJournalPort):
    """One file per journal key and host, `<key id>.<host>.journal`, in a directory every
    process (and, on Kubernetes, every replica) shares. Each host appends only to its own
    file, under an flock among that host's processes, so no two machines ever append to one
    file (appends over NFS are not atomic); a replay reads every host's file."""

    def __init__(self, directory: Path, journal_key: bytes, host: str | None = None) -> None:
        self._directory = directory
        self._key = journal_key
        self._key_id = journal_key_id(journal_key)
        self._path = directory / f"{self._key_id}.{host or _host_name()}.journal"
        self._seen: tuple[tuple[str, int, int], ...] | None = None
        self._contents = JournalContents(frozenset())

    @property
    def key_id(self) -> str:
        return self._key_id

    async def record(self, key: KeyRef) -> None:
        digest = erasure_digest(self._key, key)
        if digest in (await self.contents()).digests:
            return  # already durable (an erasure made again by a replay)
        await asyncio.to_thread(self._append, journal_line(digest))

    async def contents(self) -> JournalContents:
        return await asyncio.to_thread(self._read)

    def names(self, contents: JournalContents, key: KeyRef) -> bool:
        return erasure_digest(self._key, key) in contents.digests

    def _append(self, line: bytes) -> None:
        created = not self._path.exists()
        fd = os.open(self._path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)  # released by close
            size = os.fstat(fd).st_size
            # A crash mid-append leaves a torn line: start on a line of our own after it.
            torn = size > 0 and os.pread(fd, 1, size - 1) != b"\n"
            os.write(fd, (b"\n" if torn else b"") + line)
            os.fsync(fd)
        finally:
            os.close(fd)
        if created:
            fsync_dir(self._directory)

    def _read(self) -> JournalContents:
        files = sorted(self._directory.glob(f"{self._key_id}.*.journal"))
        seen = []
        for path in files:
            stat = path.stat()
            seen.append((path.name, stat.st_size, stat.st_mtime_ns))
        if tuple(seen) == self._seen:
            return self._contents
        contents = JournalContents(frozenset())
        for path in files:
            contents = contents | parse_journal(path.read_bytes())
        self._seen, self._contents = tuple(seen), contents
        return contents


def open_file_journal(
    directory: Path, key_path: Path, recorded_id: str | None, *, create: bool = True
) -> FileErasureJournal | None:
    """The journal in `directory` with the key at `key_path`, created (0600, and the
    directory 0700) when `create` and the database never recorded a journal key. Without
    `create` (`memlane verify`, `upgrade --dry-run`: they write nothing) a journal that does
    not exist yet is None: it holds no record. Blocking. Raises ConfigurationError, in one
    line, when the directory cannot be written, the key is missing for a database that
    recorded one, or the key is another one than the database's erasures were recorded with."""
    directory = directory.expanduser()
    key_path = key_path.expanduser()
    if recorded_id is not None and not key_path.exists():
        raise ConfigurationError(
            f"the erasure journal key file {key_path} does not exist, but this database's "
            f"erasures were journaled with key {recorded_id}: restore that file "
            "(memory.erasure_journal_key_path); a new key would match none of its records"
        )
    if not create and not key_path.exists():
        return None
    if create:
        _writable(directory)
    try:
        key = load_or_create_key(key_path) if create else load_key(key_path)
    except OSError as exc:
        raise ConfigurationError(
            f"memory.erasure_journal_key_path {key_path}: cannot create it ({exc.strerror})"
        ) from exc
    journal = FileErasureJournal(directory, key)
    if recorded_id is not None and journal.key_id != recorded_id:
        raise ConfigurationError(
            f"the erasure journal key {key_path} (id {journal.key_id}) is not the one this "
            f"database's erasures were journaled with (id {recorded_id}): restore that file"
        )
    return journal


def _writable(directory: Path) -> None:
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigurationError(
            f"memory.erasure_journal_dir {directory}: cannot create it ({exc.strerror})"
        ) from exc
    if not os.access(directory, os.W_OK | os.X_OK):
        raise ConfigurationError(f"memory.erasure_journal_dir {directory} is not writable")
