"""The embedded server's watch, driven by stand-ins for the postmaster: restarts under the lock,
backs off, stops on a persistent cause, and logs one line per change of state."""

from __future__ import annotations

import logging
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from memlane.adapters.postgres import embedded_watch
from memlane.adapters.postgres.embedded_watch import EmbeddedWatch
from memlane.adapters.postgres.server_failure import PGSERVER_ERRORS, classify

WAIT_S = 10
WATCH_LOG = "memlane.adapters.postgres.embedded"


class Postmaster:
    """A server that dies when told and starts once `starts_failing` reaches zero."""

    def __init__(self, failures: list[str] | None = None) -> None:
        self.running = True
        self.failures = list(failures or [])
        self.starts = 0
        self.locked = threading.Lock()
        self.lock_held_during_start = True

    def restart(self) -> None:
        self.starts += 1
        self.lock_held_during_start &= self.locked.locked()
        if self.failures:
            # pgserver logs a failed pg_ctl with its stderr (the watch reads it from there).
            logging.getLogger("pgserver").error(
                "Failed postgres command\nstderr:\n%s\n---\n", self.failures.pop(0))
            raise subprocess.CalledProcessError(1, "pg_ctl")
        self.running = True

    @contextmanager
    def lock(self) -> Iterator[None]:
        with self.locked:
            yield


def watching(postmaster: Postmaster, tmp_path: Path) -> EmbeddedWatch:
    logging.getLogger("pgserver").addHandler(PGSERVER_ERRORS)
    watch = EmbeddedWatch(tmp_path, alive=lambda: postmaster.running,
                          restart=postmaster.restart, lock=postmaster.lock, interval_s=0.01)
    watch.start()
    return watch


def until(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.01)


@pytest.fixture(autouse=True)
def quick_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedded_watch, "FIRST_BACKOFF_S", 0.01)
    monkeypatch.setattr(embedded_watch, "MAX_BACKOFF_S", 0.02)


def test_a_dead_server_is_started_again_under_the_lock_through_busy_shared_memory(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    busy = 'FATAL:  pre-existing shared memory block (key 1, ID 2) is still in use'
    postmaster = Postmaster([busy, busy, busy])
    watch = watching(postmaster, tmp_path)
    try:
        with caplog.at_level(logging.INFO, logger=WATCH_LOG):
            postmaster.running = False
            until(lambda: "serving again" in caplog.text)
    finally:
        watch.stop()
    assert postmaster.running and postmaster.starts == 4 and postmaster.lock_held_during_start
    lines = [r.getMessage() for r in caplog.records if r.name == WATCH_LOG]
    assert len(lines) == 2, lines  # down, then serving again: nothing per attempt
    assert "is down: restarting it" in lines[0]


def test_a_persistent_cause_stops_the_retries_with_one_message(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    denied = 'pg_ctl: error: could not open file "global/pg_control": Permission denied'
    postmaster = Postmaster([denied] * 100)
    watch = watching(postmaster, tmp_path)
    try:
        with caplog.at_level(logging.INFO, logger=WATCH_LOG):
            postmaster.running = False
            until(lambda: "cannot be restarted" in caplog.text)
            starts = postmaster.starts
            postmaster.running = True  # started by someone else, once the cause was fixed
            until(lambda: "serving again" in caplog.text)
    finally:
        watch.stop()
    assert starts == 1 and postmaster.starts == 1
    errors = [r for r in caplog.records if r.name == WATCH_LOG and r.levelno == logging.ERROR]
    assert len(errors) == 1 and "Permission denied" in errors[0].getMessage()
    assert errors[0].exc_info is None  # a line, not a traceback


def test_a_server_someone_else_restarted_is_not_started_twice(tmp_path: Path) -> None:
    postmaster = Postmaster()
    original = postmaster.lock

    @contextmanager
    def lock_while_another_restarts() -> Iterator[None]:
        postmaster.running = True  # the other process held the lock and started it
        with original():
            yield

    postmaster.lock = lock_while_another_restarts  # type: ignore[method-assign]
    watch = watching(postmaster, tmp_path)
    try:
        postmaster.running = False
        until(lambda: postmaster.running)
        time.sleep(0.05)
    finally:
        watch.stop()
    assert postmaster.starts == 0


def test_a_stopped_watch_restarts_nothing(tmp_path: Path) -> None:
    postmaster = Postmaster()
    watch = watching(postmaster, tmp_path)
    watch.stop()
    postmaster.running = False
    time.sleep(0.05)
    assert postmaster.starts == 0


@pytest.mark.parametrize(("lines", "cause", "persistent"), [
    (["2026-01-01 UTC [7] FATAL:  could not write lock file: No space left on device"],
     "FATAL:  could not write lock file: No space left on device", True),
    (["/bin/sh: 1: cannot create /x/log: Permission denied",
      'pg_ctl: error: could not open file "/x/global/pg_control" for reading: Permission denied'],
     "/bin/sh: 1: cannot create /x/log: Permission denied", True),
    (["LOG:  starting", "FATAL:  pre-existing shared memory block (key 5) is still in use"],
     "FATAL:  pre-existing shared memory block (key 5) is still in use", False),
    ([], "pg_ctl failed without a message", False),
])
def test_a_failed_start_is_named_in_one_line(
    lines: list[str], cause: str, persistent: bool
) -> None:
    failure = classify(lines)
    assert (failure.cause, failure.persistent) == (cause, persistent)
    assert "\n" not in failure.cause
