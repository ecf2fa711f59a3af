"""A kept store for the recall benchmark: ingest the sets once, ask the questions many times.

`bench/locomo.py --keep DIR` ingests every set into DIR on its first run (the embedded
PostgreSQL's data dir, the encryption key, which turns each memory stands for, and what the
store was built from) and asks nothing there; every later run with the same DIR copies the
store into a scratch dir and asks every question of that copy. Each run so starts from the
same state as a fresh run after its ingest (the context path records access, so asking on
the kept store itself would change it), and a ranking change that needs no new ingest
(a fusion weight, a stage left out) is measured in minutes instead of an hour.
A DIR built from other sets, another model, graph mode, ingest route or keyword code is
refused: delete it to build it again.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import Any
from uuid import UUID

from bench.memory_sets import MemorySet
from bench.recall_metrics import Turns

STORE = "store"
STORED = "stored.json"
META = "meta.json"
# What decides the kept store's rows: a change here asks for a new ingest.
INGEST_CODE = ("src/adapters/keywords", "src/service/memories", "src/domain/memories")


class KeptStoreMismatch(Exception):
    """The kept store was built from something else than this run asks for."""


def code_hash(root: Path) -> str:
    """A hash of the source that writes the rows (keywords, the memory service)."""
    digest = hashlib.sha256()
    for name in INGEST_CODE:
        path = root / name
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path] if path.exists() else []
        for file in files:
            digest.update(str(file.relative_to(root)).encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()[:12]


def meta(sets: list[MemorySet], model: str, graph: str, ingest: str, root: Path) -> dict[str, Any]:
    return {
        "sets": {s.name: s.id_hash() for s in sets},
        "model": model,
        "graph": graph,
        "ingest": ingest,
        "ingest_code": code_hash(root),
    }


def store_paths(base: Path) -> dict[str, str]:
    """The settings' data dir and key path inside a store dir."""
    return {"data_dir": str(base / "pgdata"), "encryption_key_path": str(base / "key")}


def kept(keep: Path) -> bool:
    return (keep / META).exists()


def check(keep: Path, wanted: dict[str, Any]) -> None:
    have = json.loads((keep / META).read_text(encoding="utf-8"))
    if differs := sorted(k for k in wanted if have.get(k) != wanted[k]):
        raise KeptStoreMismatch(
            f"{keep} was built with other {', '.join(differs)} "
            f"({ {k: have.get(k) for k in differs} } against { {k: wanted[k] for k in differs} }); "
            "delete it to ingest again"
        )


def save(keep: Path, wanted: dict[str, Any], stored: dict[str, dict[UUID, Turns]]) -> None:
    """After the ingest (the server stopped): which turns each memory is, and the meta last,
    so a store whose ingest broke off is never taken for a kept one."""
    rows = {owner: {str(m): sorted(t) for m, t in memories.items()}
            for owner, memories in stored.items()}
    (keep / STORED).write_text(json.dumps(rows), encoding="utf-8")
    (keep / META).write_text(json.dumps(wanted), encoding="utf-8")


def load_stored(keep: Path) -> dict[str, dict[UUID, Turns]]:
    rows = json.loads((keep / STORED).read_text(encoding="utf-8"))
    return {owner: {UUID(m): frozenset(t) for m, t in memories.items()}
            for owner, memories in rows.items()}


def copy_store(keep: Path, scratch: Path) -> Path:
    """A copy of the kept store to ask on; returns its dir."""
    source, target = keep / STORE, scratch / STORE
    shutil.copytree(source, target, symlinks=True)
    # Run as root, the embedded server runs as its own user and owns its data dir: the copy
    # must be its too (copytree gives every file to the user who copies).
    for copied in [target, *target.rglob("*")]:
        owner = (source / copied.relative_to(target)).lstat()
        if (owner.st_uid, owner.st_gid) != (copied.lstat().st_uid, copied.lstat().st_gid):
            os.chown(copied, owner.st_uid, owner.st_gid, follow_symlinks=False)
    return target
