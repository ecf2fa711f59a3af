"""The embedded PostgreSQL: starts in a fresh dir, is shared by processes, refuses unusable dirs."""

from __future__ import annotations

import asyncio
import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

from memlane.adapters.postgres.embedded import start_embedded
from memlane.domain.errors import ConfigurationError

pytestmark = pytest.mark.integration

JOIN_FROM_ANOTHER_PROCESS = """
import sys
from memlane.adapters.postgres.embedded import start_embedded
print(start_embedded(sys.argv[1]))
"""


@pytest.fixture
def scratch() -> Iterator[Path]:
    """A dir outside pytest's tmp tree (kept 0700 there, while pgserver runs PostgreSQL as
    its own user when started by root)."""
    path = Path(tempfile.mkdtemp(prefix="memlane-embedded-test-"))
    # At exit, after the server started here has stopped (exit hooks run last-in first-out).
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    yield path


def _postmaster_pid(data_dir: Path) -> int:
    return int((data_dir / "postmaster.pid").read_text().splitlines()[0])


async def _server_answers(dsn: str) -> int:
    connection = await asyncpg.connect(dsn)
    try:
        return int(await connection.fetchval("SELECT pg_backend_pid()"))
    finally:
        await connection.close()


async def test_a_fresh_dir_gets_a_running_server_that_a_second_process_shares(
    scratch: Path,
) -> None:
    data_dir = scratch / "data"
    dsn = start_embedded(data_dir, delete_on_exit=True)
    assert (data_dir / "PG_VERSION").is_file()
    assert await _server_answers(dsn) > 0
    assert start_embedded(data_dir) == dsn
    postmaster = _postmaster_pid(data_dir)

    joined = await asyncio.create_subprocess_exec(
        sys.executable, "-c", JOIN_FROM_ANOTHER_PROCESS, str(data_dir),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )
    stdout, _ = await asyncio.wait_for(joined.communicate(), timeout=60)
    assert joined.returncode == 0
    assert stdout.decode().strip().splitlines()[-1] == dsn
    # The other process exited; this one still uses the server, so it must still run.
    assert _postmaster_pid(data_dir) == postmaster
    assert await _server_answers(dsn) > 0


def test_a_data_dir_that_is_a_file_is_a_clear_error(scratch: Path) -> None:
    target = scratch / "data"
    target.write_text("not a directory")
    with pytest.raises(ConfigurationError, match="not a directory"):
        start_embedded(target)


def test_a_non_empty_dir_that_is_not_postgres_is_a_clear_error(scratch: Path) -> None:
    target = scratch / "data"
    target.mkdir()
    (target / "notes.txt").write_text("someone else's files")
    with pytest.raises(ConfigurationError, match="not a PostgreSQL data directory"):
        start_embedded(target)
    assert sorted(os.listdir(target)) == ["notes.txt"]


def test_a_data_dir_under_a_file_is_a_clear_error(scratch: Path) -> None:
    blocker = scratch / "file"
    blocker.write_text("x")
    with pytest.raises(ConfigurationError, match="cannot create its parent"):
        start_embedded(blocker / "deeper" / "data")
