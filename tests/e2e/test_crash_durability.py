"""kill -9 of the embedded PostgreSQL under write load: 503 while it is down, restarted by the
serving process itself (issue 28), and every acknowledged write still there (issue 15)."""

from __future__ import annotations

import random
import signal
import subprocess
import threading
import time
from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil
import pytest

from tests.e2e.test_serve_process import Deployment, serving
from tests.e2e.test_serve_shutdown import _stop_leftover_server

pytestmark = pytest.mark.e2e

WRITERS = 4
MAX_ACKS_PER_WRITER = 300  # the load is bounded; refusals while down do not count
RETRY_PAUSE_S = 0.3
CRASHES = 2
ACKS_BETWEEN_CRASHES = 12
WAIT_S = 60  # generous: the machine may be loaded; nothing here is timed
# Each write is a bag of random words, so near-duplicate merging rarely joins two of them.
WORDS = (  # noqa: SIM905 - a word list reads better as text
    "harbour lantern orchard violin glacier pepper saddle comet meadow quartz ember "
    "tundra walnut falcon pottery canyon saffron beacon marble willow thunder cobalt "
    "invoice dentist bicycle passport keyboard mortgage chemistry volcano sandwich "
    "umbrella festival tractor penguin lecture soccer diamond printer chapter recipe "
    "airport hospital tomato poetry engine museum spider blanket compass lottery jungle "
    "rocket surgeon garlic theatre wallet bridge pirate mushroom satellite ballet "
    "tornado laundry cathedral vaccine dolphin espresso skyline fossil"
).split()


@dataclass
class Crashed:
    deployment: Deployment
    data_dir: Path
    process: subprocess.Popen[str]
    output: deque[str]  # the tail of the server's log, drained so its pipe never fills


@pytest.fixture
def crashed() -> Iterator[Crashed]:
    """`memlane serve` on a fresh embedded data dir, without the maintenance worker."""
    with serving("memlane-crash-", MEMLANE_WORKER__ENABLED="false") as (served, process, home):
        output: deque[str] = deque(maxlen=400)
        assert process.stdout is not None
        threading.Thread(target=output.extend, args=(process.stdout,), daemon=True).start()
        try:
            yield Crashed(served, home / "data", process, output)
        finally:
            # The postmaster a test restarted must not outlive it, even when it failed.
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=WAIT_S)
            except subprocess.TimeoutExpired:
                process.kill()
            _stop_leftover_server(home / "data")


@dataclass
class Ledger:
    """What the writers were told: the last acknowledged content of each memory id."""

    acknowledged: dict[str, dict[str, str]] = field(default_factory=dict)  # user -> id -> text
    acks: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, user: str, status: str, memory: dict[str, Any] | None = None) -> None:
        with self.lock:
            self.statuses[status] += 1
            if memory is not None:
                self.acknowledged.setdefault(user, {})[memory["id"]] = memory["content"]
                self.acks += 1


def write(base_url: str, user: str, token: str, ledger: Ledger, stop: threading.Event) -> None:
    """POST distinct memories until stopped; only a 200/201 counts as acknowledged."""
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=base_url, headers=headers, timeout=WAIT_S) as http:
        draw = random.Random(user)
        n = acked = 0
        while acked < MAX_ACKS_PER_WRITER and not stop.is_set():
            n += 1
            content = f"{user} note {n}: {' '.join(draw.sample(WORDS, 8))}"
            try:
                response = http.post("/v1/memories", json={"content": content})
            except httpx.TransportError as exc:  # outcome unknown: not acknowledged
                ledger.record(user, type(exc).__name__)
                time.sleep(RETRY_PAUSE_S)
                continue
            if response.status_code in (200, 201):
                ledger.record(user, str(response.status_code), response.json()["memory"])
                acked += 1
            else:
                ledger.record(user, str(response.status_code))
                time.sleep(RETRY_PAUSE_S)


def wait_for(condition: Any, what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    pytest.fail(f"waited {WAIT_S} s for {what}")


def kill_postmaster(data_dir: Path) -> psutil.Process:
    pid = int((data_dir / "postmaster.pid").read_text().split()[0])
    postmaster = psutil.Process(pid)
    postmaster.send_signal(signal.SIGKILL)
    postmaster.wait(timeout=WAIT_S)
    return postmaster


def restarted(data_dir: Path, killed: int) -> bool:
    try:
        pid = int((data_dir / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return False
    return pid != killed and psutil.pid_exists(pid)


def readiness(base_url: str) -> int:
    try:
        return httpx.get(f"{base_url}/readyz", timeout=10).status_code
    except httpx.TransportError:
        return 0


def stored(deployment: Deployment, token: str) -> dict[str, str]:
    """Every memory of the key's user, id -> content, read page by page."""
    found: dict[str, str] = {}
    cursor: str | None = None
    with httpx.Client(base_url=deployment.base_url, timeout=WAIT_S,
                      headers={"Authorization": f"Bearer {token}"}) as http:
        while True:
            params: dict[str, Any] = {"limit": 200} | ({"cursor": cursor} if cursor else {})
            page = http.get("/v1/memories", params=params)
            assert page.status_code == 200, page.text
            body = page.json()
            found |= {m["id"]: m["content"] for m in body["items"]}
            cursor = body["next_cursor"]
            if cursor is None:
                return found


def test_killing_postgres_under_write_load_loses_no_acknowledged_write(crashed: Crashed) -> None:
    deployment, base_url = crashed.deployment, crashed.deployment.base_url
    tokens = {f"writer{i}": deployment.token("crash", f"writer{i}") for i in range(WRITERS)}
    ledger, stop = Ledger(), threading.Event()
    writers = [
        threading.Thread(target=write, args=(base_url, user, token, ledger, stop), daemon=True)
        for user, token in tokens.items()
    ]
    for thread in writers:
        thread.start()
    try:
        for _ in range(CRASHES):
            target = ledger.acks + ACKS_BETWEEN_CRASHES
            wait_for(lambda t=target: ledger.acks >= t, f"{ACKS_BETWEEN_CRASHES} more writes")
            killed = kill_postmaster(crashed.data_dir)
            # No hand: the serving process starts a new postmaster by itself.
            wait_for(lambda k=killed.pid: restarted(crashed.data_dir, k), "a new postmaster")
            wait_for(lambda: readiness(base_url) == 200, "/readyz to answer 200 again")
        target = ledger.acks + ACKS_BETWEEN_CRASHES
        wait_for(lambda: ledger.acks >= target or not any(w.is_alive() for w in writers),
                 "writes after the last restart")
    except BaseException:
        print(dict(ledger.statuses), "".join(crashed.output)[-20000:])
        raise
    finally:
        stop.set()
        for thread in writers:
            thread.join(timeout=WAIT_S)

    lost: dict[str, dict[str, str]] = {}
    for user, acked in ledger.acknowledged.items():
        held = stored(deployment, tokens[user])
        lost[user] = {i: text for i, text in acked.items() if held.get(i) != text}
    lost_count = sum(len(missing) for missing in lost.values())
    print(f"crash test: {CRASHES} kills, {ledger.acks} acknowledged writes "
          f"({sum(len(a) for a in ledger.acknowledged.values())} memories), {lost_count} lost; "
          f"responses {dict(ledger.statuses)}")
    failures = [s for s in ledger.statuses if s.startswith("5") and s != "503"]
    log = "".join(crashed.output)
    assert not failures, log[-30000:]
    assert lost_count == 0, lost
    # One line per change of state, no traceback (issue 28).
    assert log.count("is down: restarting it") == CRASHES, log[-30000:]
    assert log.count("is serving again") == CRASHES, log[-30000:]
    assert "Traceback" not in log, log[-30000:]
    # The postmaster this process started is stopped when it, the last user, stops.
    postmaster = psutil.Process(int((crashed.data_dir / "postmaster.pid").read_text().split()[0]))
    crashed.process.send_signal(signal.SIGINT)
    crashed.process.wait(timeout=WAIT_S)
    postmaster.wait(timeout=WAIT_S)  # raises TimeoutExpired if it outlives memlane
