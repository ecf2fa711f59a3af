"""The embedded server's buffer cache: sized from the machine, set when memlane starts the
server, and dropped again when the server cannot start with it."""

from __future__ import annotations

import logging
import os
import subprocess
from pathlib import Path

from memlane.adapters.postgres.server_failure import log_lines_since, log_size
from memlane.domain.errors import ConfigurationError

_log = logging.getLogger(__name__)

_MB = 1 << 20
AUTO_SHARED_BUFFERS_MB = (128, 512)


def shared_buffers_size(setting: str = "auto") -> str:
    """The shared_buffers value for a database.shared_buffers setting ("auto": an eighth of
    the machine's memory, within AUTO_SHARED_BUFFERS_MB)."""
    if setting != "auto":
        return setting
    low, high = AUTO_SHARED_BUFFERS_MB
    memory_mb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // _MB
    return f"{min(high, max(low, memory_mb // 8))}MB"


def run_psql(psql: Path, dsn: str, sql: str, **variables: str) -> str:
    """One statement through psql; `variables` are quoted by psql (:'name')."""
    options = [f"--variable={name}={value}" for name, value in variables.items()]
    result = subprocess.run(
        [str(psql), "-X", "-tA", *options, dsn],
        input=sql, capture_output=True, text=True, timeout=30, check=False,
    )
    if result.returncode != 0:
        raise ConfigurationError(f"the embedded PostgreSQL refused: {result.stderr.strip()}")
    return result.stdout.strip()


def tune(pgserver_module, server, psql: Path, dsn: str, shared_buffers: str) -> None:  # type: ignore[no-untyped-def]
    """Give the server the configured buffer cache (PostgreSQL's default, 128 MB, holds
    less than the vector index of 100k memories: every search then copied pages from the
    OS cache). Runs under the data-dir lock: the server restarts only when this process is
    its sole user, else the size applies from its next start."""
    current, wanted = run_psql(
        psql, dsn,
        "SELECT pg_size_bytes(current_setting('shared_buffers')), pg_size_bytes(:'size');",
        size=shared_buffers,
    ).split("|")
    if current == wanted:
        return
    run_psql(psql, dsn, "ALTER SYSTEM SET shared_buffers = :'size';", size=shared_buffers)
    from pgserver.utils import DiskList

    if DiskList(server.pgdata / ".handle_pids.json").get() != [os.getpid()]:
        # A reload shows the waiting change in pg_settings.pending_restart.
        run_psql(psql, dsn, "SELECT pg_reload_conf();")
        _log.info("embedded PostgreSQL: shared_buffers %s from its next start", shared_buffers)
        return
    with pgserver_module.PostgresServer._lock:
        pgserver_module.postgres_server.pg_ctl(
            ["-w", "-m", "fast", "stop"], pgdata=server.pgdata, user=server.system_user
        )
        # Started again by pgserver itself: its options, its log, its exit hook's view of
        # the new postmaster (the server stops when the last user exits).
        try:
            server.ensure_postgres_running()
        except subprocess.CalledProcessError:
            if not _forget_shared_buffers(server.pgdata):
                raise
            server.ensure_postgres_running()
            _log.warning(
                "embedded PostgreSQL could not start with shared_buffers %s (see %s); "
                "it runs with its previous size", shared_buffers, server.pgdata / "log",
            )
            return
    _log.info("embedded PostgreSQL restarted with shared_buffers %s", shared_buffers)


def quick_crash_recovery(psql: Path, dsn: str) -> None:
    """After a crash PostgreSQL first fsyncs every file of the data dir, one by one (seconds
    on a busy disk before recovery even starts); on Linux one syncfs() per file system does
    the same. Reloadable: applies to the next crash recovery."""
    if os.uname().sysname != "Linux":
        return
    current = run_psql(psql, dsn, "SELECT current_setting('recovery_init_sync_method');")
    if current != "syncfs":
        run_psql(psql, dsn, "ALTER SYSTEM SET recovery_init_sync_method = 'syncfs';")
        run_psql(psql, dsn, "SELECT pg_reload_conf();")


def _forget_shared_buffers(data_dir: Path) -> bool:
    """Drop a shared_buffers set by ALTER SYSTEM (the server is down: it could not start
    with it). Whether there was one."""
    settings = data_dir / "postgresql.auto.conf"
    if not settings.is_file():
        return False
    lines = settings.read_text().splitlines(keepends=True)
    kept = [line for line in lines if not line.lstrip().startswith("shared_buffers")]
    if kept == lines:
        return False
    settings.write_text("".join(kept))  # rewritten in place: owner and mode stay
    return True


def get_server(pgserver_module, path: Path, cleanup_mode: str):  # type: ignore[no-untyped-def]
    """pgserver's handle on the server in `path`, started if need be; once more without a
    shared_buffers that no longer fits (a smaller machine, another setting) when the
    first start fails."""
    offset = log_size(path / "log")
    try:
        return pgserver_module.get_server(path, cleanup_mode=cleanup_mode)
    except subprocess.CalledProcessError:
        # Only a start that failed for memory is tried again smaller: a full disk or a
        # permission problem keeps its own message, and the setting stays.
        said = log_lines_since(path / "log", offset)
        if not any("shared memory" in line for line in said) or not _forget_shared_buffers(path):
            raise
        # The failed handle registered itself before starting; it must not be reused.
        pgserver_module.PostgresServer._instances.pop(path, None)
        _log.warning("embedded PostgreSQL could not start with its shared_buffers (see %s); "
                     "starting it with the default size", path / "log")
        return pgserver_module.get_server(path, cleanup_mode=cleanup_mode)
