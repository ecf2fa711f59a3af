"""The embedded PostgreSQL: starts in a fresh dir, is shared by processes, refuses unusable dirs."""

from __future__ import annotations

import asyncio
import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

from memlane.adapters.postgres.buffer_cache import AUTO_SHARED_BUFFERS_MB, shared_buffers_size
from memlane.adapters.postgres.embedded import release_embedded, start_embedded
from memlane.domain.errors import ConfigurationError

pytestmark = pytest.mark.integration

JOIN_FROM_ANOTHER_PROCESS = """
import subprocess
import sys
from memlane.adapters.postgres.embedded import start_embedded
print(start_embedded(sys.argv[1], shared_buffers=sys.argv[2]))
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


async def _setting(dsn: str, query: str) -> object:
    connection = await asyncpg.connect(dsn)
    try:
        return await connection.fetchval(query)
    finally:
        await connection.close()


async def _server_answers(dsn: str) -> int:
    return int(str(await _setting(dsn, "SELECT pg_backend_pid()")))


async def _join_from_another_process(data_dir: Path, shared_buffers: str) -> str:
    """start_embedded in a second process that then exits; the DSN it was given."""
    joined = await asyncio.create_subprocess_exec(
        sys.executable, "-c", JOIN_FROM_ANOTHER_PROCESS, str(data_dir), shared_buffers,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )
    stdout, _ = await asyncio.wait_for(joined.communicate(), timeout=60)
    assert joined.returncode == 0
    return stdout.decode().strip().splitlines()[-1]


async def test_a_fresh_dir_gets_a_running_server_that_a_second_process_shares(
    scratch: Path,
) -> None:
    data_dir = scratch / "data"
    dsn = start_embedded(data_dir, delete_on_exit=True)
    assert (data_dir / "PG_VERSION").is_file()
    assert await _server_answers(dsn) > 0
    assert start_embedded(data_dir) == dsn
    postmaster = _postmaster_pid(data_dir)

    assert await _join_from_another_process(data_dir, "auto") == dsn
    # The other process exited; this one still uses the server, so it must still run.
    assert _postmaster_pid(data_dir) == postmaster
    assert await _server_answers(dsn) > 0


async def test_the_server_gets_the_configured_buffer_cache_without_restarting_under_a_user(
    scratch: Path,
) -> None:
    data_dir = scratch / "data"
    # Alone on a fresh server: restarted at once with the configured size.
    dsn = start_embedded(data_dir, delete_on_exit=True, shared_buffers="160MB")
    assert await _setting(dsn, "SHOW shared_buffers") == "160MB"
    postmaster = _postmaster_pid(data_dir)
    # Another process asking for another size while this one uses the server: no restart,
    # the size waits for the next start.
    assert await _join_from_another_process(data_dir, "176MB") == dsn
    assert _postmaster_pid(data_dir) == postmaster
    assert await _setting(dsn, "SHOW shared_buffers") == "160MB"
    assert await _setting(
        dsn, "SELECT pending_restart FROM pg_settings WHERE name = 'shared_buffers'"
    ) is True


def test_auto_buffer_cache_is_an_eighth_of_memory_within_bounds() -> None:
    size = shared_buffers_size("auto")
    low, high = AUTO_SHARED_BUFFERS_MB
    assert size.endswith("MB") and low <= int(size.removesuffix("MB")) <= high
    assert shared_buffers_size("256MB") == "256MB"


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


SHARED_MEMORY_FATAL = ("2026-01-01 00:00:00.000 UTC [7] FATAL:  could not map anonymous shared "
                       "memory: Cannot allocate memory")


def stopped(data_dir: Path) -> None:
    """This process, the server's only user, done with it: its watch ends (no restart of
    what is stopped on purpose) and the server stops, as when memlane exits."""
    release_embedded(data_dir)
    assert not (data_dir / "postmaster.pid").exists()


def _auto_conf(data_dir: Path) -> str:
    return (data_dir / "postgresql.auto.conf").read_text()


async def test_a_buffer_cache_the_server_cannot_start_with_is_dropped_not_fatal(
    scratch: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # The restart with the new size fails (as when the machine cannot map that much shared
    # memory): the size is forgotten and the server starts again with its previous one.
    import pgserver

    real = pgserver.PostgresServer.ensure_postgres_running
    calls: list[Path] = []

    def failing_once(self: pgserver.PostgresServer) -> None:
        calls.append(self.pgdata)
        if len(calls) == 2:  # the first start is the fresh server's; the second, the restart
            raise subprocess.CalledProcessError(1, "pg_ctl start")
        real(self)

    monkeypatch.setattr(pgserver.PostgresServer, "ensure_postgres_running", failing_once)
    data_dir = scratch / "data"
    dsn = start_embedded(data_dir, delete_on_exit=True, shared_buffers="192MB")
    assert len(calls) == 3  # started, failed with 192MB, started with the previous size
    assert await _setting(dsn, "SHOW shared_buffers") == "128MB"
    assert "shared_buffers" not in _auto_conf(data_dir)
    assert "could not start with shared_buffers 192MB" in caplog.text


async def test_a_server_that_no_longer_starts_with_its_buffer_cache_starts_without_it(
    scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pgserver

    data_dir = scratch / "data"
    start_embedded(data_dir, shared_buffers="144MB")
    # Stopped, and the next start fails once (a smaller machine): the stored size goes.
    stopped(data_dir)
    assert "144MB" in _auto_conf(data_dir)
    real = pgserver.get_server
    calls: list[Path] = []

    def failing_once(path: Path, cleanup_mode: str | None = "stop") -> pgserver.PostgresServer:
        calls.append(path)
        if len(calls) == 1:  # as PostgreSQL says it when the memory is not there
            with open(data_dir / "log", "a") as log:
                log.write(f"{SHARED_MEMORY_FATAL}\n")
            raise subprocess.CalledProcessError(1, "pg_ctl start")
        return real(path, cleanup_mode=cleanup_mode)

    monkeypatch.setattr(pgserver, "get_server", failing_once)
    dsn = start_embedded(data_dir, delete_on_exit=True, shared_buffers="144MB")
    assert len(calls) == 2
    # Started without the stored size, then given the configured one again (sole user).
    assert await _setting(dsn, "SHOW shared_buffers") == "144MB"


async def test_an_external_database_url_gets_no_watch_and_is_never_restarted(
    migrated_database_url: str, tmp_path: Path
) -> None:
    from memlane.adapters.postgres import embedded
    from memlane.adapters.postgres.database import open_database
    from memlane.settings import DatabaseSettings

    watched, users = dict(embedded._watches), dict(embedded._users)
    config = DatabaseSettings(url=migrated_database_url, data_dir=tmp_path / "unused",
                              pool_min_size=1, pool_max_size=2)
    async with open_database(config) as database:
        assert await database.pool.fetchval("SELECT 1") == 1
        assert embedded._watches == watched and embedded._users == users
    assert not (tmp_path / "unused").exists()  # no embedded server was started for it


def test_a_start_failing_for_another_cause_keeps_the_buffer_cache_and_names_the_cause(
    scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pgserver

    data_dir = scratch / "data"
    start_embedded(data_dir, shared_buffers="144MB")
    stopped(data_dir)

    def full_disk(path: Path, cleanup_mode: str | None = "stop") -> pgserver.PostgresServer:
        with open(data_dir / "log", "a") as log:
            log.write("2026-01-01 UTC [9] FATAL:  could not write lock file "
                      '"postmaster.pid": No space left on device\n')
        raise subprocess.CalledProcessError(1, "pg_ctl start")

    monkeypatch.setattr(pgserver, "get_server", full_disk)
    with pytest.raises(ConfigurationError) as refused:
        start_embedded(data_dir, shared_buffers="144MB")
    message = str(refused.value)
    assert "No space left on device" in message and str(data_dir / "log") in message
    assert "\n" not in message
    assert "144MB" in _auto_conf(data_dir)  # not the cause: the setting stays
