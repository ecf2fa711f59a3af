"""The encryption key file: 32 random bytes, created 0600 once, checked on every load."""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from memlane.domain.errors import ConfigurationError

KEY_FILE_BYTES = 32


def load_or_create_key(path: str | os.PathLike[str]) -> bytes:
    """The key at `path`; a new random one is written there first if none exists."""
    key_path = Path(path).expanduser()
    if not key_path.exists():
        _create(key_path)
    return load_key(key_path)


def _create(key_path: Path) -> None:
    key_path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    # Write a private temporary file, then hard-link it into place: the key
    # appears whole or not at all, and a concurrent creator cannot be overwritten.
    tmp = key_path.with_name(f".{key_path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(os.urandom(KEY_FILE_BYTES))
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(FileExistsError):  # another process won the race: use its key
            os.link(tmp, key_path)
    finally:
        tmp.unlink(missing_ok=True)
    fsync_dir(key_path.parent)


def load_key(key_path: Path) -> bytes:
    """The key at `key_path`, checked: a regular private file of exactly 32 bytes."""
    try:
        info = key_path.stat()
    except OSError as exc:
        raise ConfigurationError(f"cannot read encryption key file {key_path}: {exc}") from exc
    if not stat.S_ISREG(info.st_mode):
        raise ConfigurationError(f"encryption key path {key_path} is not a regular file")
    if os.name == "posix" and info.st_mode & 0o077:
        raise ConfigurationError(
            f"encryption key file {key_path} is readable by other users "
            f"(mode {stat.S_IMODE(info.st_mode):04o}); run `chmod 600 {key_path}`"
        )
    try:
        key = key_path.read_bytes()
    except OSError as exc:
        raise ConfigurationError(f"cannot read encryption key file {key_path}: {exc}") from exc
    if len(key) != KEY_FILE_BYTES:
        raise ConfigurationError(
            f"encryption key file {key_path} holds {len(key)} bytes, not {KEY_FILE_BYTES}: "
            "it is not a memlane key. Restore the right file; moving it away makes memlane "
            "create a new key, and memories sealed with the old one can no longer be read"
        )
    return key


def fsync_dir(directory: Path) -> None:
    # Makes the new name durable; not every platform can open a directory.
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
