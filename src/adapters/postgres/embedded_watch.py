"""A process's watch over the embedded PostgreSQL it uses: a dead server is started again."""

from __future__ import annotations

import logging
import os
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path

from memlane.adapters.postgres.server_failure import StartFailure, classify, start_failures

_log = logging.getLogger("memlane.adapters.postgres.embedded")

CHECK_INTERVAL_S = 0.5
# After a kill -9 the postmaster's backends notice its death and exit, but until the last one
# has, a new postmaster refuses to start ("pre-existing shared memory block is still in
# use"), and until its parent has reaped it, its pid still names a process: the first tries
# fail for a moment. Doubling from a quarter second, at most a second apart.
FIRST_BACKOFF_S = 0.25
MAX_BACKOFF_S = 1.0
# A cause that is neither known to pass nor known to stay is tried this many times.
MAX_UNKNOWN_FAILURES = 30


class EmbeddedWatch:
    """A daemon thread checking every `CHECK_INTERVAL_S` that the postmaster in `data_dir`
    lives. When it has died, this process starts it again under the data dir's lock (so one
    process does, and the others find it running and carry on); it stays registered as a
    user of the server, and its pgserver handle points at the new postmaster, so whichever
    process is last to stop stops it. A persistent cause (a full disk, bad permissions) ends
    the retries with one message. Logs one line per change of state, never a traceback."""

    def __init__(
        self,
        data_dir: Path,
        *,
        alive: Callable[[], bool],
        restart: Callable[[], None],
        lock: Callable[[], AbstractContextManager[None]],
        interval_s: float = CHECK_INTERVAL_S,
    ) -> None:
        self._data_dir = data_dir
        self._alive = alive
        self._restart = restart
        self._lock = lock
        self._interval = interval_s
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run, name=f"memlane-watch-{data_dir.name}", daemon=True
        )

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Before this process releases the server: a stop it makes is not a death."""
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=30)

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            if not self._alive():
                self._heal()

    def _heal(self) -> None:
        """One outage, from the first sight of a dead postmaster until it serves again (or a
        persistent cause stops the retries)."""
        down_since = time.monotonic()
        _log.warning("embedded PostgreSQL in %s is down: restarting it", self._data_dir)
        backoff, unknown = FIRST_BACKOFF_S, 0
        for attempt in self._attempts():
            if attempt is None:  # running again, by this process or another
                _log.warning("embedded PostgreSQL in %s is serving again after %.1f s",
                             self._data_dir, time.monotonic() - down_since)
                return
            _log.debug("embedded PostgreSQL restart failed: %s", attempt.cause)
            unknown = 0 if attempt.persistent else unknown + 1
            if attempt.persistent or unknown >= MAX_UNKNOWN_FAILURES:
                _log.error("embedded PostgreSQL in %s cannot be restarted: %s (see %s); not "
                           "retrying: fix the cause, then restart memlane", self._data_dir,
                           attempt.cause, self._data_dir / "log")
                self._wait_for_someone_else()
                return
            if self._stop.wait(backoff):
                return
            backoff = min(2 * backoff, MAX_BACKOFF_S)

    def _attempts(self) -> Iterator[StartFailure | None]:
        while not self._stop.is_set():
            yield self._try_once()

    def _try_once(self) -> StartFailure | None:
        with self._lock():
            if self._stop.is_set() or self._alive():
                return None  # another process restarted it meanwhile (or we are stopping)
            failures = (OSError, subprocess.SubprocessError, RuntimeError, AssertionError)
            with start_failures(self._data_dir / "log") as lines:
                try:
                    self._restart()
                except failures as exc:
                    lines.append(f"error: {exc}")  # read with pg_ctl's output below
            return None if self._alive() else classify(lines)

    def _wait_for_someone_else(self) -> None:
        """Retries stopped: watch on quietly; a server another process starts is news."""
        while not self._stop.wait(self._interval):
            if self._alive():
                _log.warning("embedded PostgreSQL in %s is serving again", self._data_dir)
                return


def postmaster_alive(data_dir: Path) -> bool:
    """Whether the postmaster named by postmaster.pid runs (a kill -9 leaves the file)."""
    try:
        pid = int((data_dir / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it runs as the server's own user (memlane started as root)
        return _is_postgres(pid)
    return _is_postgres(pid)


def _is_postgres(pid: int) -> bool:
    # A pid can be reused after the postmaster died: only a postgres process counts.
    try:
        import psutil

        process = psutil.Process(pid)
        return process.status() != psutil.STATUS_ZOMBIE and process.name().startswith("postgres")
    except Exception:  # gone, or unreadable: not a live postmaster
        return False
