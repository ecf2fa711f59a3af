"""The in-process entry point a host chat service uses, on a fresh embedded data directory."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

import memlane
from memlane.domain.model import MemoryType

pytestmark = pytest.mark.integration


@pytest.fixture
def fresh_home() -> Path:
    """Outside pytest's 0700 tmp tree: the embedded server may run as its own system user.

    Removed at exit, and registered before the server starts, so it runs after the server's
    own exit hook has stopped it (atexit runs last-in first-out): deleting the directory
    under a running server would leave the server behind."""
    home = Path(tempfile.mkdtemp(prefix="memlane-inproc-"))
    os.chmod(home, 0o755)
    atexit.register(shutil.rmtree, home, ignore_errors=True)
    return home


def files_containing(root: Path, needle: bytes) -> list[Path]:
    found = []
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            try:
                if needle in path.read_bytes():
                    found.append(path)
            except OSError:  # sockets, files vanishing during a checkpoint
                continue
    return found


async def test_open_memory_recalls_lisbon_first_and_stores_no_plaintext(fresh_home: Path) -> None:
    data_dir, key_path = fresh_home / "data", fresh_home / "memory_encryption.key"

    async with memlane.open_memory(
        database={"url": "", "data_dir": str(data_dir)},
        memory={"encryption_key_path": str(key_path)},
        worker={"enabled": False},
    ) as memory:
        assert isinstance(memory, memlane.MemoryContextPort)
        await memory.remember(user_id="alice", content="I work as a nurse at the harbour clinic")
        await memory.remember(user_id="alice", content="I live in Lisbon")
        await memory.remember(user_id="alice", content="My favourite food is grilled sardines")
        await memory.remember(user_id="bob", content="I live in Oslo")
        contexts = await memory.retrieve_context(user_id="alice", query="Where do I live?", limit=5)

    assert contexts, "the Lisbon memory must be recalled"
    assert contexts[0].content == "I live in Lisbon"
    assert contexts[0].memory_type is MemoryType.FACT
    assert contexts[0].relevance > 0
    assert all("Oslo" not in c.content for c in contexts)
    assert key_path.stat().st_mode & 0o777 == 0o600
    assert files_containing(data_dir, b"Lisbon") == []
    assert files_containing(data_dir, "Lisbon".encode("utf-16-le")) == []
