"""The embedded PostgreSQL heals itself (issue 28): any memlane process using it starts it again
after a kill, the last process to stop stops it whoever started it, a persistent cause ends
the retries with one line, and a failed start names its cause in one line."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import psutil
import pytest

from tests.e2e.erasure_world import WAIT_S, Install, installation
from tests.e2e.test_serve_process import MEMLANE, REPO

pytestmark = pytest.mark.e2e


def postmaster(data_dir: Path) -> psutil.Process | None:
    try:
        pid = int((data_dir / "postmaster.pid").read_text().split()[0])
        found = psutil.Process(pid)
    except (OSError, ValueError, IndexError, psutil.Error):
        return None
    return found if found.status() != psutil.STATUS_ZOMBIE else None


def wait_for(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"waited {WAIT_S} s for {what}")
        time.sleep(0.1)


def ready(install: Install) -> bool:
    try:
        return httpx.get(f"{install.base_url}/readyz", timeout=5).status_code == 200
    except httpx.TransportError:
        return False


def kill(found: psutil.Process | None) -> int:
    assert found is not None
    found.send_signal(signal.SIGKILL)
    found.wait(timeout=WAIT_S)
    return found.pid


def test_a_killed_server_is_restarted_by_a_user_and_stopped_by_the_last_one() -> None:
    with installation("memlane-heal-") as install:
        with install.serving() as served:
            mcp = subprocess.Popen(  # a second user of the server: an idle desktop assistant
                [MEMLANE, "mcp", "--user", "someone"], env=install.env, cwd=REPO,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True)
            try:
                # Up, not only registered: a kill during its start (the migration's
                # connection) ends the start with exit 69, which is not what this tests.
                assert _initialized(mcp), "memlane mcp answers an MCP initialize"
                assert len(_users(install)) >= 2
                killed = kill(postmaster(install.data_dir))
                wait_for(lambda: (p := postmaster(install.data_dir)) is not None
                         and p.pid != killed, "a new postmaster, started by memlane")
                wait_for(lambda: ready(install), "serve to answer again")
                restarted = postmaster(install.data_dir)
                assert restarted is not None
                served.send_signal(signal.SIGINT)
                served.wait(timeout=WAIT_S)
                assert restarted.is_running()  # memlane mcp still uses it
            finally:
                # The assistant goes away (its stdin closes): mcp exits.
                mcp_log = mcp.communicate(input="", timeout=WAIT_S)[1]
            restarted.wait(timeout=WAIT_S)  # the last user stopped it, whoever started it
        assert "Traceback" not in mcp_log, mcp_log[-3000:]


def _initialized(mcp: subprocess.Popen[str]) -> bool:
    """Whether `memlane mcp` answers an MCP initialize on stdio within WAIT_S."""
    assert mcp.stdin is not None and mcp.stdout is not None
    mcp.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-03-26", "capabilities": {},
        "clientInfo": {"name": "heal-test", "version": "1"}}}) + "\n")
    mcp.stdin.flush()
    readable, _, _ = select.select([mcp.stdout], [], [], WAIT_S)
    return bool(readable) and '"id":1' in mcp.stdout.readline().replace(" ", "")


def _users(install: Install) -> list[int]:
    try:
        pids = json.loads((install.data_dir / ".handle_pids.json").read_text())
    except (OSError, ValueError):
        return []
    return [p for p in pids if psutil.pid_exists(p)]


def _break_permissions(place: Path) -> tuple[int, int, int]:
    """Make `place` unreadable for the server: as root PostgreSQL runs as its own user, so
    it goes to root alone; otherwise it loses every permission. What to put back."""
    info = place.stat()
    if os.geteuid() == 0:
        os.chown(place, 0, 0)
    os.chmod(place, 0o700 if os.geteuid() == 0 else 0o000)
    return info.st_uid, info.st_gid, info.st_mode


def _mend_permissions(place: Path, was: tuple[int, int, int]) -> None:
    os.chmod(place, was[2])
    if os.geteuid() == 0:
        os.chown(place, was[0], was[1])


def test_a_persistent_cause_ends_the_retries_with_one_line_and_a_start_names_it() -> None:
    with installation("memlane-heal-denied-") as install, install.serving() as served:
        output: list[str] = []
        assert served.stdout is not None
        threading.Thread(target=output.extend, args=(served.stdout,), daemon=True).start()
        control = install.data_dir / "global"  # pg_control: no server starts without it
        was = _break_permissions(control)
        try:
            kill(postmaster(install.data_dir))
            wait_for(lambda: "cannot be restarted" in "".join(output), "the watch to give up")
            started = install.cli("stats")  # a failed start: one line, the cause, the log
            assert started.returncode == 78
            lines = started.stderr.strip().splitlines()
            assert len(lines) == 1, started.stderr
            assert "Permission denied" in lines[0] and str(install.data_dir / "log") in lines[0]
        finally:
            _mend_permissions(control, was)
        assert install.cli("db-url").returncode == 0  # someone starts it once it is mended
        wait_for(lambda: ready(install), "serve to answer again")
        served.send_signal(signal.SIGINT)
        served.wait(timeout=WAIT_S)
    log = "".join(output)
    assert log.count("cannot be restarted") == 1, log[-5000:]
    assert "Permission denied" in log and "not retrying" in log
    assert log.count("is serving again") == 1, log[-5000:]
    assert "Traceback" not in log, log[-5000:]
