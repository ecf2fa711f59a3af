"""`memlane serve` as a process on the embedded defaults, driven over HTTP and by the CLI."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from memlane.domain.similarity import DEFAULT_EMBEDDING_MODEL

pytestmark = pytest.mark.e2e

MEMLANE = str(Path(sys.executable).with_name("memlane"))
REPO = Path(__file__).resolve().parents[2]
STARTUP_TIMEOUT_S = 90


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Deployment:
    env: dict[str, str]
    base_url: str

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [MEMLANE, *args], env=self.env, cwd=REPO, capture_output=True, text=True, timeout=120
        )

    def token(self, tenant: str, user: str) -> str:
        created = self.cli("keys", "create", "--tenant", tenant, "--user", user)
        assert created.returncode == 0, created.stderr
        return created.stdout.strip()


def embedded_env(home: Path, port: int, **settings: str) -> dict[str, str]:
    """The environment of a memlane on its own embedded server, key and erasure journal
    under `home`."""
    env = {
        **os.environ,
        "MEMLANE_DATABASE__URL": "",
        "MEMLANE_DATABASE__DATA_DIR": str(home / "data"),
        "MEMLANE_MEMORY__ENCRYPTION_KEY_PATH": str(home / "memory_encryption.key"),
        # Apart from the data dir, as by default: a copy of the data never holds it.
        "MEMLANE_MEMORY__ERASURE_JOURNAL_DIR": str(home / "state" / "erasures"),
        "MEMLANE_SERVER__PORT": str(port),
        **settings,
    }
    env.pop("MEMLANE_TEST_DATABASE_URL", None)
    return env


def start_serve(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [MEMLANE, "serve", *args], env=env, cwd=REPO,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )


@contextmanager
def serving(
    prefix: str, **settings: str
) -> Iterator[tuple[Deployment, subprocess.Popen[str], Path]]:
    """`memlane serve` on a fresh home (key and embedded data dir), ready; stopped and
    removed after. Yields the deployment, the process and the home."""
    home = Path(tempfile.mkdtemp(prefix=prefix))
    os.chmod(home, 0o755)
    port = free_port()
    env = embedded_env(home, port, **settings)
    server = start_serve(env)
    base_url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_ready(server, base_url)
        yield Deployment(env=env, base_url=base_url), server, home
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="module")
def deployment() -> Iterator[Deployment]:
    with serving("memlane-e2e-", MEMLANE_WORKER__FIRST_RUN_DELAY="1") as (served, _, _):
        yield served


def _wait_until_ready(server: subprocess.Popen[str], base_url: str) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            output = server.stdout.read() if server.stdout else ""
            pytest.fail(f"memlane serve exited with {server.returncode}:\n{output[-3000:]}")
        try:
            if httpx.get(f"{base_url}/readyz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.3)
    pytest.fail("memlane serve did not become ready in time")


def test_a_memory_round_trips_over_http_and_stays_private(deployment: Deployment) -> None:
    alice = {"Authorization": f"Bearer {deployment.token('demo', 'alice')}"}
    mallory = {"Authorization": f"Bearer {deployment.token('demo', 'mallory')}"}

    with httpx.Client(base_url=deployment.base_url, timeout=30) as http:
        created = http.post("/v1/memories", json={"content": "I live in Lisbon"}, headers=alice)
        assert created.status_code == 201, created.text
        memory_id = created.json()["memory"]["id"]
        assert created.json()["merged"] is False

        found = http.get("/v1/memories/search", params={"q": "Where do I live?"}, headers=alice)
        assert found.status_code == 200, found.text
        assert "I live in Lisbon" in found.text

        context = http.post("/v1/context", json={"query": "Where do I live?"}, headers=alice)
        assert context.status_code == 200, context.text
        # The profile line says it; the memory's one sentence would only repeat it.
        assert "lives in: Lisbon" in context.json()["context"]

        assert http.get(f"/v1/memories/{memory_id}", headers=alice).status_code == 200
        hidden = http.get(f"/v1/memories/{memory_id}", headers=mallory)
        assert hidden.status_code == 404
        assert hidden.headers["content-type"].startswith("application/problem+json")
        assert http.get("/v1/memories/stats", headers=alice).json()["total"] == 1


def test_scheduled_decay_and_cleanup_run_against_the_same_store(deployment: Deployment) -> None:
    headers = {"Authorization": f"Bearer {deployment.token('default', 'carol')}"}
    with httpx.Client(base_url=deployment.base_url, timeout=30) as http:
        created = http.post(
            "/v1/memories",
            json={
                "content": "The weather API said 14 degrees and drizzle",
                "memory_type": "tool_result",
                "importance": 0.1,
            },
            headers=headers,
        )
        assert created.status_code == 201, created.text

    decayed = deployment.cli("decay")
    assert decayed.returncode == 0, decayed.stderr
    assert decayed.stdout.startswith("decay: ")

    # Written a moment ago: within its grace period (memory.cleanup_grace_days, 7) it stays.
    kept = deployment.cli("cleanup", "--tenant", "default", "--user", "carol")
    assert kept.returncode == 0, kept.stderr
    assert kept.stdout.strip() == "cleanup: 0 memories deleted"

    without_grace = {**deployment.env, "MEMLANE_MEMORY__CLEANUP_GRACE_DAYS": "0"}
    cleaned = subprocess.run(
        [MEMLANE, "cleanup", "--tenant", "default", "--user", "carol"], env=without_grace,
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )
    assert cleaned.returncode == 0, cleaned.stderr
    assert cleaned.stdout.strip() == "cleanup: 1 memories deleted"

    with httpx.Client(base_url=deployment.base_url, timeout=30) as http:
        stats = http.get("/v1/memories/stats", headers=headers)
        assert stats.json()["total"] == 0


def test_reembed_embeds_every_memory_again_and_search_still_finds_them(
    deployment: Deployment,
) -> None:
    headers = {"Authorization": f"Bearer {deployment.token('default', 'dave')}"}
    with httpx.Client(base_url=deployment.base_url, timeout=30) as http:
        created = http.post(
            "/v1/memories", json={"content": "My cello lessons are on Thursdays"}, headers=headers
        )
        assert created.status_code == 201, created.text

    reembedded = deployment.cli("reembed", "--yes")
    assert reembedded.returncode == 0, reembedded.stderr
    assert reembedded.stdout.startswith("reembed: ")
    stats = deployment.cli("stats")
    assert stats.returncode == 0, stats.stderr
    counts = json.loads(stats.stdout)
    assert counts["with_embeddings"] == counts["total"] > 0

    with httpx.Client(base_url=deployment.base_url, timeout=30) as http:
        found = http.get("/v1/memories/search", params={"q": "When is cello?"}, headers=headers)
        assert "cello lessons" in found.text


def test_writes_survive_an_embedder_outage_and_backfill_embeds_them(
    deployment: Deployment, tmp_path: Path
) -> None:
    records = tmp_path / "memories.ndjson"
    records.write_text(
        json.dumps({"content": "I keep bees on the roof of the old bakery"})
        + "\n"
        + json.dumps({"content": "Eve's train to Ghent leaves at 07:42 every weekday"})
        + "\n"
    )
    down = {
        **deployment.env,
        "MEMLANE_MEMORY__EMBEDDING__PROVIDER": "ollama",
        # The deployment's own model's name: nothing answers, and its stored vectors
        # (from the onnx default) stay in one space with what this run stores.
        "MEMLANE_MEMORY__EMBEDDING__MODEL": DEFAULT_EMBEDDING_MODEL,
        "MEMLANE_MEMORY__EMBEDDING__OLLAMA_URL": f"http://127.0.0.1:{free_port()}",
        "MEMLANE_MEMORY__EMBEDDING__TIMEOUT_MS": "500",
        "MEMLANE_MEMORY__EMBEDDING__MAX_RETRIES": "0",
    }
    imported = subprocess.run(
        [MEMLANE, "import", "--user", "eve", str(records)],
        env=down,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert imported.returncode == 0, imported.stderr
    # Without embeddings nothing links (no probe), and the file carries no graph records.
    assert imported.stdout.strip() == (
        "import: 2 stored, 0 skipped (already held); 0 edges, 0 entity mentions, "
        "0 facts stored, 0 skipped"
    )
    before = json.loads(deployment.cli("stats", "--user", "eve").stdout)
    assert (before["total"], before["with_embeddings"]) == (2, 0)

    backfilled = deployment.cli("backfill")
    assert backfilled.returncode == 0, backfilled.stderr
    after = json.loads(deployment.cli("stats", "--user", "eve").stdout)
    assert (after["total"], after["with_embeddings"]) == (2, 2)


def test_export_and_import_carry_edges_and_entities_to_another_user(
    deployment: Deployment, tmp_path: Path
) -> None:
    gwen = {"Authorization": f"Bearer {deployment.token('default', 'gwen')}"}
    texts = ["My colleague Ravi moved to Munich in June",
             "Ravi still owes me the book about Munich",
             "The plumber comes on Thursday"]
    with httpx.Client(base_url=deployment.base_url, timeout=30) as http:
        made = http.post("/v1/memories/batch", json={"memories": [{"content": t} for t in texts]},
                         headers=gwen)
        assert made.status_code == 201, made.text  # all new
        ids = [r["memory"]["id"] for r in made.json()["results"]]
        stated = http.post(f"/v1/memories/{ids[2]}/edges",
                           json={"target": ids[0], "kind": "narrative", "weight": 0.4},
                           headers=gwen)
        assert stated.status_code in (200, 201), stated.text

    Graph = tuple[set[tuple[str, str, str]], set[tuple[str, str, frozenset[str]]]]

    def graph_of(user: str) -> Graph:
        out = tmp_path / f"{user}.ndjson"
        exported = deployment.cli("export", "--user", user, "--output", str(out))
        assert exported.returncode == 0, exported.stderr
        lines = [json.loads(line) for line in out.read_text().splitlines()]
        content = {r["id"]: r["content"] for r in lines if "record" not in r}
        edges = {(content[r["source"]], content[r["target"]], r["kind"])
                 for r in lines if r.get("record") == "edge"}
        entities = {(r["name"], r["kind"], frozenset(content[m["memory"]] for m in r["mentions"]))
                    for r in lines if r.get("record") == "entity"}
        return edges, entities

    edges, entities = graph_of("gwen")
    assert (texts[2], texts[0], "narrative") in edges
    assert ("Ravi", "person", frozenset(texts[:2])) in entities
    imported = deployment.cli("import", "--user", "hal", str(tmp_path / "gwen.ndjson"))
    assert imported.returncode == 0, imported.stderr
    copied_edges, copied_entities = graph_of("hal")
    # Every exported edge comes back; the import's own writes may link more (memories
    # written in one batch share a time, so their temporal edges follow the new ids).
    assert copied_edges >= edges and copied_entities == entities
