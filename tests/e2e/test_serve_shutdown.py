"""`memlane serve --workers 2` on the embedded PostgreSQL stops the server when it stops."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest

from tests.e2e.test_serve_process import (
    _wait_until_ready,
    embedded_env,
    free_port,
    start_serve,
)

pytestmark = pytest.mark.e2e

EXIT_WAIT_S = 60


@dataclass
class Served:
    process: subprocess.Popen[str]
    data_dir: Path
    base_url: str

    def postmaster(self) -> psutil.Process:
        pid = int((self.data_dir / "postmaster.pid").read_text().split()[0])
        return psutil.Process(pid)

    def workers(self) -> list[psutil.Process]:
        """uvicorn's worker processes (not multiprocessing's resource tracker)."""
        workers = []
        for child in psutil.Process(self.process.pid).children():
            try:
                if "spawn_main" in " ".join(child.cmdline()):
                    workers.append(child)
            except psutil.Error:  # a crashed worker not yet reaped
                continue
        return workers


@pytest.fixture(params=["2"])
def served(request: pytest.FixtureRequest) -> Iterator[Served]:
    """`memlane serve --workers <param>` on a fresh embedded data dir."""
    home = Path(tempfile.mkdtemp(prefix="memlane-stop-"))
    os.chmod(home, 0o755)
    port = free_port()
    process = start_serve(
        embedded_env(home, port, MEMLANE_WORKER__ENABLED="false"), "--workers", request.param
    )
    base_url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_ready(process, base_url)
        yield Served(process, home / "data", base_url)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=30)
        _stop_leftover_server(home / "data")
        shutil.rmtree(home, ignore_errors=True)


def _stop_leftover_server(data_dir: Path) -> None:
    """Never leave a postmaster behind, even when the test failed."""
    pid_file = data_dir / "postmaster.pid"
    if pid_file.is_file():
        pid = int(pid_file.read_text().split()[0])
        if psutil.pid_exists(pid):
            os.kill(pid, signal.SIGINT)  # PostgreSQL's fast shutdown


def _gone(process: psutil.Process, within_s: float) -> bool:
    try:
        process.wait(timeout=within_s)
    except psutil.TimeoutExpired:
        return False
    return True


def _stop(served: Served, sig: signal.Signals) -> psutil.Process:
    postmaster = served.postmaster()
    assert postmaster.is_running()
    served.process.send_signal(sig)
    served.process.wait(timeout=EXIT_WAIT_S)
    return postmaster


@pytest.mark.parametrize("served", ["1", "2"], indirect=True)
def test_sigterm_stops_the_workers_and_the_embedded_postgres(served: Served) -> None:
    # One worker: uvicorn runs in the parent and re-raises SIGTERM there after shutdown.
    postmaster = _stop(served, signal.SIGTERM)
    assert served.process.returncode == 0
    assert _gone(postmaster, EXIT_WAIT_S), "the embedded PostgreSQL outlived memlane serve"


def test_sigint_after_a_worker_crash_and_restart_still_stops_the_embedded_postgres(
    served: Served,
) -> None:
    before = served.workers()
    assert len(before) == 2
    before[0].kill()  # a crash: no exit hooks run
    deadline = time.monotonic() + EXIT_WAIT_S
    while time.monotonic() < deadline:
        now = served.workers()
        if len(now) == 2 and before[0].pid not in {p.pid for p in now}:
            break
        time.sleep(0.5)
    else:
        pytest.fail("uvicorn did not restart the crashed worker")
    _wait_until_ready(served.process, served.base_url)

    postmaster = _stop(served, signal.SIGINT)
    assert _gone(postmaster, EXIT_WAIT_S), "the embedded PostgreSQL outlived memlane serve"
