"""The master key files of a rotation: the key in use, `.next` (being rotated to) and
`.previous` (the one rotated away from, kept until every process runs on the new key)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from memlane.adapters.encryption.keyfile import fsync_dir, load_key, load_or_create_key
from memlane.adapters.encryption.xchacha import key_fingerprint


def next_path(path: str | os.PathLike[str]) -> Path:
    key_path = Path(path).expanduser()
    return key_path.with_name(key_path.name + ".next")


def previous_path(path: str | os.PathLike[str]) -> Path:
    key_path = Path(path).expanduser()
    return key_path.with_name(key_path.name + ".previous")


def load_masters(path: str | os.PathLike[str]) -> list[bytes]:
    """Every master key file present (in use, next, previous): what wrapped keys may need."""
    found = []
    for candidate in (Path(path).expanduser(), next_path(path), previous_path(path)):
        if candidate.exists():
            found.append(load_key(candidate))
    return found


def load_previous(path: str | os.PathLike[str]) -> bytes | None:
    """The key rotated away from (`.previous`), if it is still kept."""
    previous = previous_path(path)
    return load_key(previous) if previous.exists() else None


def rotation_files(path: str | os.PathLike[str]) -> dict[str, str]:
    """Fingerprint -> file, for the rotation's other key files: a startup that finds the
    data's fingerprint among them says which file to use instead of a bare mismatch."""
    return {
        key_fingerprint(load_key(candidate)): str(candidate)
        for candidate in (next_path(path), previous_path(path))
        if candidate.exists()
    }


def prepare_next(path: str | os.PathLike[str]) -> bytes:
    """The key being rotated to: `.next`, created (0600, whole or not at all) by the first
    run, reused by a rerun, so an interrupted rotation continues to the same key."""
    return load_or_create_key(next_path(path))


def install_next(path: str | os.PathLike[str]) -> None:
    """After the database moved to `.next`: keep the key in use as `.previous`, then move
    `.next` into place (each step atomic; a rerun after a crash finishes it)."""
    key_path = Path(path).expanduser()
    nxt = next_path(key_path)
    if not nxt.exists():
        return
    previous = previous_path(key_path)
    if key_path.exists() and load_key(key_path) != load_key(nxt):
        tmp = key_path.with_name(f".{key_path.name}.{os.getpid()}.previous")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        os.link(key_path, tmp)
        os.replace(tmp, previous)
    os.replace(nxt, key_path)
    fsync_dir(key_path.parent)
