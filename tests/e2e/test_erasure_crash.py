"""A crash between the steps of an erasure: the journal's record is durable, the transaction is
not committed, the process dies. The next start completes the erasure (issue 28)."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import threading
import time
from contextlib import suppress
from pathlib import Path

import asyncpg
import httpx
import pytest

from tests.e2e.erasure_world import (
    TENANT,
    WAIT_S,
    Install,
    installation,
    owner_rows,
    populate,
    readable_markers,
)
from tests.e2e.test_serve_process import _wait_until_ready, start_serve

pytestmark = pytest.mark.e2e

LOCK_ALICES_KEY = "SELECT 1 FROM data_keys WHERE tenant = $1 AND user_id = 'alice' FOR UPDATE"


def journal_records(journal_dir: Path) -> int:
    return sum(path.read_bytes().count(b"erased ") for path in journal_dir.glob("*.journal"))


ALICES_MEMORIES = "SELECT count(*) FROM memories WHERE tenant = $1 AND user_id = 'alice'"


def test_a_crash_after_the_journal_record_and_before_the_commit_is_completed_at_the_next_start(
) -> None:
    with installation("memlane-erase-crash-") as install:
        journal = install.home / "state" / "erasures"
        served = start_serve(install.env)
        try:
            _wait_until_ready(served, install.base_url)
            ids = populate(install)
            bob_before = install.export("bob")
            dsn = install.dsn()
            left = asyncio.run(_crash_mid_erasure(install, served, dsn, journal))
        finally:
            if served.poll() is None:
                served.kill()
        assert journal_records(journal) == 1
        assert left >= 3  # not committed: her memories are all there (the server outlived serve)
        verified = install.cli("verify")  # says what the next start will do, writes nothing
        assert verified.returncode == 0, verified.stderr
        assert '"kind": "erasure_replay"' in verified.stdout
        assert '"user_id": "alice"' in verified.stdout
        assert "1 erased owners a replay would erase again" in verified.stderr
        assert journal_records(journal) == 1

        with install.serving():  # the next start completes the erasure
            leftover = {table: n for table, n in owner_rows(install.dsn(), "alice").items() if n}
            assert leftover == {}
            assert readable_markers(install, "alice", ids) == []
            assert install.export("bob") == bob_before
        assert journal_records(journal) == 1  # the replay recorded nothing new


async def _crash_mid_erasure(
    install: Install, served: subprocess.Popen[str], dsn: str, journal: Path
) -> int:
    """Holding alice's key row: the erasure journals her key, deletes her rows, then waits to
    delete the key, uncommitted, until its process is killed. Her memories left after."""
    blocker = await asyncpg.connect(dsn)
    try:
        async with blocker.transaction():
            await blocker.execute(LOCK_ALICES_KEY, TENANT)
            erasing = threading.Thread(target=_erase, daemon=True,
                                       args=(install.base_url, install.headers("alice")))
            erasing.start()
            deadline = time.monotonic() + WAIT_S
            while journal_records(journal) == 0:
                assert time.monotonic() < deadline, "no journal record appeared"
                await asyncio.sleep(0.05)
            served.send_signal(signal.SIGKILL)  # the crash
            served.wait(timeout=WAIT_S)
        # Its transaction is rolled back once the lock is free and its client is gone.
        deadline = time.monotonic() + WAIT_S
        while await blocker.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'memlane'"
        ):
            assert time.monotonic() < deadline, "the dead process's sessions lingered"
            await asyncio.sleep(0.05)
        return int(await blocker.fetchval(ALICES_MEMORIES, TENANT))
    finally:
        await blocker.close()


def _erase(base_url: str, headers: dict[str, str]) -> None:
    with suppress(httpx.TransportError):  # the server dies under it: no answer
        httpx.delete(f"{base_url}/v1/memories", params={"confirm": "true"}, headers=headers,
                     timeout=WAIT_S)
