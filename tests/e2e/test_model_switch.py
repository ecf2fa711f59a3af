"""Switching memory.embedding.model on an installation: refused at start until `memlane reembed`;
an installation that never chose its model keeps serving its stored vectors' model."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from tests.e2e.test_serve_process import (
    MEMLANE,
    REPO,
    STARTUP_TIMEOUT_S,
    _wait_until_ready,
    embedded_env,
    free_port,
    start_serve,
)

pytestmark = pytest.mark.e2e

EXIT_CONFIG = 78
E5 = {"MEMLANE_MEMORY__EMBEDDING__MODEL": "multilingual-e5-small"}
MINILM = {"MEMLANE_MEMORY__EMBEDDING__MODEL": "all-MiniLM-L6-v2"}


@contextmanager
def running(env: dict[str, str]) -> Iterator[str]:
    """`memlane serve` ready on `env`; yields its base URL, stopped after."""
    server = start_serve(env)
    base_url = f"http://127.0.0.1:{env['MEMLANE_SERVER__PORT']}"
    try:
        _wait_until_ready(server, base_url)
        yield base_url
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([MEMLANE, *args], env=env, cwd=REPO, capture_output=True, text=True,
                          timeout=300)


@pytest.fixture
def home() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="memlane-switch-"))
    os.chmod(path, 0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_a_new_model_is_refused_until_reembed_moves_every_memory_over(home: Path) -> None:
    unset = embedded_env(home, free_port())
    minilm = {**unset, **MINILM}
    token = cli(minilm, "keys", "create", "--tenant", "default", "--user", "kai").stdout.strip()
    headers = {"Authorization": f"Bearer {token}"}
    with running(minilm) as base_url, httpx.Client(base_url=base_url, timeout=30) as http:
        for content in ("Ich arbeite als Krankenpfleger im Krankenhaus.",
                        "Meine Lieblingsfarbe ist Grün.", "I keep bees on the roof."):
            stored = http.post("/v1/memories", json={"content": content}, headers=headers)
            assert stored.status_code == 201, stored.text

    # The model left unset (the default is e5 now): the installation keeps its own.
    with running(unset) as base_url, httpx.Client(base_url=base_url, timeout=30) as http:
        kept = http.get("/v1/memories/search", params={"q": "bees"}, headers=headers)
        assert kept.status_code == 200, kept.text
        assert {r["memory"]["embedding_model"] for r in kept.json()["results"]} == {
            "all-MiniLM-L6-v2"}

    e5 = {**minilm, **E5}
    refused = start_serve(e5)
    output, _ = refused.communicate(timeout=STARTUP_TIMEOUT_S)
    assert refused.returncode == EXIT_CONFIG, output
    assert "'all-MiniLM-L6-v2' (3 memories)" in output
    assert "memory.embedding.model is 'multilingual-e5-small'" in output
    assert "`memlane reembed`" in output and "Traceback" not in output
    # The library and the other commands refuse alike (the same check opens them all).
    stats = cli(e5, "stats")
    assert stats.returncode == EXIT_CONFIG and "memlane reembed" in stats.stderr

    moved = cli(e5, "reembed", "--yes")
    assert moved.returncode == 0, moved.stderr
    assert moved.stdout.strip() == "reembed: 3 memories embedded with multilingual-e5-small"

    with running(e5) as base_url, httpx.Client(base_url=base_url, timeout=30) as http:
        found = http.get("/v1/memories/search", params={"q": "Was ist mein Beruf?"},
                         headers=headers)
        assert found.status_code == 200, found.text
        (best, *_) = found.json()["results"]
        assert "Krankenpfleger" in best["memory"]["content"]
        assert {r["memory"]["embedding_model"] for r in found.json()["results"]} == {
            "multilingual-e5-small"}
    # And back: the old model is now the foreign one; unset, e5 is served (no refusal).
    back = cli(minilm, "stats")
    assert back.returncode == EXIT_CONFIG and "'multilingual-e5-small' (3 memories)" in back.stderr
    assert cli(unset, "stats").returncode == 0
