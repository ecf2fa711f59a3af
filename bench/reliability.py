"""Issue 28's closing figures: erasure against a restored backup, an old export through cleanup,
kill -9 of the embedded PostgreSQL under four writers healed without a hand, and what the
erasure journal's replay costs a start at 100,000 users.

    .venv/bin/python bench/reliability.py [--kills 5] [--writers 4] [--replay-users 100000]

Each part runs `memlane serve` and the CLI as processes on a scratch home (embedded server,
key, erasure journal under state/) and prints one JSON object with the figures and the CPU.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import psutil

MEMLANE = str(Path(sys.executable).with_name("memlane"))
WAIT_S = 120
A_TEXTS = ("My pet quokka is called Pip", "I live in Lisbon near the river",
           "The safe code is ZANZIBAR-7731")
WORDS = (  # noqa: SIM905 - a word list reads better as text
    "harbour lantern orchard violin glacier pepper saddle comet meadow quartz ember tundra "
    "walnut falcon pottery canyon saffron beacon marble willow thunder cobalt invoice dentist "
    "bicycle passport keyboard mortgage chemistry volcano sandwich umbrella festival tractor "
    "penguin lecture soccer diamond printer chapter recipe airport hospital tomato poetry"
).split()
B_TEXTS = (("I am allergic to hazelnuts", "fact", 0.3),
           ("I prefer window seats on trains", "preference", 0.25))


class Home:
    """A memlane installation in a scratch directory, driven as an operator would."""

    def __init__(self, prefix: str, port: int, **settings: str) -> None:
        self.root = Path(tempfile.mkdtemp(prefix=prefix))
        os.chmod(self.root, 0o755)
        self.data = self.root / "data"
        self.base_url = f"http://127.0.0.1:{port}"
        self.env = {**os.environ, "MEMLANE_DATABASE__URL": "",
                    "MEMLANE_DATABASE__DATA_DIR": str(self.data),
                    "MEMLANE_MEMORY__ENCRYPTION_KEY_PATH": str(self.root / "memory.key"),
                    "MEMLANE_MEMORY__ERASURE_JOURNAL_DIR": str(self.root / "state" / "erasures"),
                    "MEMLANE_SERVER__PORT": str(port), "MEMLANE_WORKER__ENABLED": "false",
                    **settings}
        self.tokens: dict[str, str] = {}

    def with_settings(self, **settings: str) -> Home:
        """The same installation, started with other settings."""
        other = Home.__new__(Home)
        other.__dict__.update(self.__dict__, env={**self.env, **settings})
        return other

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([MEMLANE, *args], env=self.env, capture_output=True, text=True,
                              timeout=600)

    def headers(self, user: str) -> dict[str, str]:
        if user not in self.tokens:
            made = self.cli("keys", "create", "--tenant", "run", "--user", user)
            self.tokens[user] = made.stdout.strip()
        return {"Authorization": f"Bearer {self.tokens[user]}"}

    @contextmanager
    def serving(self) -> Iterator[subprocess.Popen[str]]:
        process = subprocess.Popen([MEMLANE, "serve"], env=self.env, text=True,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            until(lambda: self.ready(), "serve to be ready")
            yield process
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
                process.wait(timeout=WAIT_S)
            until(lambda: not (self.data / "postmaster.pid").exists(), "the server to stop")

    def ready(self) -> bool:
        try:
            return httpx.get(f"{self.base_url}/readyz", timeout=5).status_code == 200
        except httpx.TransportError:
            return False

    def export(self, user: str) -> bytes:
        return self.cli("export", "--tenant", "run", "--user", user).stdout.encode()

    def memories(self, user: str) -> list[str]:
        listed = httpx.get(f"{self.base_url}/v1/memories", params={"limit": 200},
                           headers=self.headers(user), timeout=60)
        return [m["content"] for m in listed.json()["items"]]

    def copy(self, source: Path, target: Path) -> None:
        shutil.rmtree(target, ignore_errors=True)
        subprocess.run(["cp", "-a", str(source), str(target)], check=True)


def until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"waited {WAIT_S} s for {what}")
        time.sleep(0.1)


def backup_erase_restore(port: int) -> dict[str, Any]:
    home = Home("memlane-run-erase-", port)
    with home.serving():
        for text in A_TEXTS:
            httpx.post(f"{home.base_url}/v1/memories", headers=home.headers("alice"),
                       json={"content": text, "tags": ["private"]}, timeout=60)
        for text, kind, importance in B_TEXTS:
            httpx.post(f"{home.base_url}/v1/memories", headers=home.headers("bob"), timeout=60,
                       json={"content": text, "memory_type": kind, "importance": importance})
        bob_before = home.export("bob")
    home.copy(home.data, home.root / "backup")
    with home.serving():
        httpx.delete(f"{home.base_url}/v1/memories", params={"confirm": "true"},
                     headers=home.headers("alice"), timeout=60)
    home.copy(home.root / "backup", home.data)
    with home.serving() as served:
        alice = home.memories("alice")
        bob = home.memories("bob")
        bob_after = home.export("bob")
        served.send_signal(signal.SIGINT)
        log = served.communicate(timeout=WAIT_S)[0]
    shutil.rmtree(home.root, ignore_errors=True)
    return {"alice_memories_before_erasure": len(A_TEXTS), "alice_readable_after_restore":
            len(alice), "bob_memories_after_restore": len(bob), "bob_export_identical":
            bob_before == bob_after, "replay_logged": "erasure journal replayed: 1" in log}


def old_export_through_cleanup(port: int) -> dict[str, Any]:
    home = Home("memlane-run-import-", port)
    export = home.root / "conversations.json"
    chats = [{"uuid": "c-2019", "name": "Odds and ends", "created_at": "2019-02-03T09:00:00Z",
              "chat_messages": [
                  {"uuid": f"m{i}", "sender": sender, "text": text,
                   "created_at": f"2019-02-03T09:{i:02d}:00Z"}
                  for i, (sender, text) in enumerate([
                      ("human", "How long should I boil an egg?"),
                      ("assistant", "About eight minutes for a firm yolk."),
                      ("human", "My sister Beatriz is moving to Porto next month"),
                      ("assistant", "That is exciting news for her.")])]}]
    export.write_text(json.dumps(chats))
    first = json.loads(home.cli("import-chats", "--format", "claude", str(export),
                                "--tenant", "run", "--user", "carol").stdout)
    cleaned = home.cli("cleanup", "--all-tenants").stdout.strip()
    # And with no grace period: the forgetting curve starts at the import, not in 2019.
    graceless = home.with_settings(MEMLANE_MEMORY__CLEANUP_GRACE_DAYS="0")
    cleaned_without_grace = graceless.cli("cleanup", "--all-tenants").stdout.strip()
    stats = json.loads(home.cli("stats", "--tenant", "run", "--user", "carol").stdout)
    again = json.loads(home.cli("import-chats", "--format", "claude", str(export),
                                "--tenant", "run", "--user", "carol").stdout)
    shutil.rmtree(home.root, ignore_errors=True)
    return {"export_year": 2019, "memories_imported": first["memories_added"],
            "cleanup_said": cleaned, "cleanup_without_grace_said": cleaned_without_grace,
            "memories_after_cleanup": stats["total"],
            "reimport_added": again["messages_added"]}


def kills_under_writers(port: int, kills: int, writers: int) -> dict[str, Any]:
    home = Home("memlane-run-kill-", port)
    acked: dict[str, dict[str, str]] = {}
    statuses: dict[str, int] = {}
    lock, stop = threading.Lock(), threading.Event()
    heal_s: list[float] = []
    answered = [0]  # acknowledged responses (a merge acknowledges a write into an older id)

    def write(user: str) -> None:
        n, draw = 0, random.Random(user)
        with httpx.Client(base_url=home.base_url, headers=home.headers(user), timeout=60) as http:
            while not stop.is_set():
                n += 1  # a bag of random words: near-duplicate merging rarely joins two
                text = f"{user} note {n}: {' '.join(draw.sample(WORDS, 8))}"
                try:
                    answer = http.post("/v1/memories", json={"content": text})
                    status = str(answer.status_code)
                except httpx.TransportError as exc:
                    status = type(exc).__name__
                with lock:
                    statuses[status] = statuses.get(status, 0) + 1
                    if status in ("200", "201"):
                        answered[0] += 1
                        memory = answer.json()["memory"]
                        acked.setdefault(user, {})[memory["id"]] = memory["content"]
                if status not in ("200", "201"):
                    time.sleep(0.2)

    def acks() -> int:
        with lock:
            return sum(len(a) for a in acked.values())

    with home.serving() as served:
        users = [f"writer{i}" for i in range(writers)]
        threads = [threading.Thread(target=write, args=(u,), daemon=True) for u in users]
        for thread in threads:
            thread.start()
        for _ in range(kills):
            target = acks() + 20
            until(lambda t=target: acks() >= t, "20 more acknowledged writes")
            pid = int((home.data / "postmaster.pid").read_text().split()[0])
            killed_at = time.monotonic()
            postmaster = psutil.Process(pid)
            postmaster.send_signal(signal.SIGKILL)
            postmaster.wait(timeout=WAIT_S)
            until(lambda: home.ready(), "serving again")
            heal_s.append(time.monotonic() - killed_at)
        target = acks() + 20
        until(lambda t=target: acks() >= t, "writes after the last restart")
        stop.set()
        for thread in threads:
            thread.join(timeout=WAIT_S)
        lost = 0
        for user in users:
            held = {}
            with httpx.Client(base_url=home.base_url, headers=home.headers(user),
                              timeout=60) as http:
                cursor = None
                while True:
                    params: dict[str, Any] = {"limit": 200} | ({"cursor": cursor} if cursor else {})
                    page = http.get("/v1/memories", params=params).json()
                    held |= {m["id"]: m["content"] for m in page["items"]}
                    if (cursor := page["next_cursor"]) is None:
                        break
            lost += sum(1 for i, text in acked.get(user, {}).items() if held.get(i) != text)
        served.send_signal(signal.SIGINT)
        log = served.communicate(timeout=WAIT_S)[0]
    left = [p.pid for p in psutil.process_iter(["cmdline"])
            if str(home.data) in " ".join(p.info["cmdline"] or [])]
    shutil.rmtree(home.root, ignore_errors=True)
    return {"kills": kills, "writers": writers, "acknowledged_writes": answered[0],
            "memories_acknowledged": acks(), "lost": lost,
            "seconds_to_serve_again": [round(s, 2) for s in heal_s],
            "p50_seconds_to_serve_again": round(statistics.median(heal_s), 2),
            "responses": statuses, "postmasters_left_after_stop": len(left),
            "tracebacks_in_log": log.count("Traceback"),
            "outage_lines_in_log": log.count("is down: restarting it")
            + log.count("is serving again")}


def replay_cost(users: int, erased: int) -> dict[str, Any]:
    """What a start pays for the replay: every data key of `users` owners compared with a
    journal of `erased` records (the owners named are not in the database: nothing to erase)."""
    import asyncio
    import uuid

    from memlane.adapters.encryption.erasure_journal import open_file_journal
    from memlane.adapters.postgres.database import open_database
    from memlane.adapters.postgres.security import PostgresReplayStoreAdapter
    from memlane.domain.model import Owner
    from memlane.domain.security import KeyRef
    from memlane.service.security import ErasureReplay
    from memlane.settings import DatabaseSettings

    root = Path(tempfile.mkdtemp(prefix="memlane-run-replay-"))
    os.chmod(root, 0o755)

    async def measure() -> dict[str, Any]:
        config = DatabaseSettings(data_dir=root / "data", pool_min_size=1, pool_max_size=2)
        async with open_database(config) as database:
            await database.pool.execute(
                "INSERT INTO data_keys (tenant, user_id, id, master_key_id, wrapped) "
                "SELECT 't', 'user-' || n, gen_random_uuid(), 'm', '\\x00' "
                "FROM generate_series(1, $1) AS n", users)
            journal = open_file_journal(root / "journal", root / "journal.key", None)
            assert journal is not None
            started = time.perf_counter()
            for n in range(erased):
                await journal.record(KeyRef(Owner("t", f"gone-{n}"), uuid.uuid4()))
            append_ms = (time.perf_counter() - started) * 1000 / max(erased, 1)
            replay = ErasureReplay(journal, PostgresReplayStoreAdapter(database.pool),
                                   None, None, None, None)  # type: ignore[arg-type]
            started = time.perf_counter()
            report = await replay.pending()
            return {"users": users, "journal_records": report.records,
                    "keys_checked": report.keys_checked, "would_erase": report.erased,
                    "replay_scan_s": round(time.perf_counter() - started, 2),
                    "journal_append_ms": round(append_ms, 2),
                    "journal_bytes": sum(f.stat().st_size for f in
                                         (root / "journal").glob("*.journal"))}

    try:
        return asyncio.run(measure())
    finally:
        shutil.rmtree(root, ignore_errors=True)


def cpu_model() -> str:
    found = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
    return next((line.split(":", 1)[1].strip() for line in found.splitlines()
                 if line.startswith("Model name")), "unknown")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--port", type=int, default=18_428)
    parser.add_argument("--replay-users", type=int, default=100_000)
    parser.add_argument("--replay-erased", type=int, default=1_000)
    options = parser.parse_args()
    print(json.dumps({
        "cpu": cpu_model(), "cores": os.cpu_count(),
        "replay_cost": replay_cost(options.replay_users, options.replay_erased),
        "backup_erase_restore": backup_erase_restore(options.port),
        "old_export_through_cleanup": old_export_through_cleanup(options.port),
        "kill_postgres_under_writers": kills_under_writers(
            options.port, options.kills, options.writers),
    }, indent=2))


if __name__ == "__main__":
    main()
