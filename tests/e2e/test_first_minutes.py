"""The first ten minutes of a new user: the README's Python as pasted, the key's first start,
a busy port, all against the embedded defaults in a data dir of their own."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from memlane.cli.common import EXIT_PORT_IN_USE
from tests.e2e.test_serve_process import (
    MEMLANE,
    REPO,
    _wait_until_ready,
    embedded_env,
    free_port,
)
from tests.stubs.openai_upstream import StubUpstream

pytestmark = pytest.mark.e2e

README = REPO / "README.md"
PYTHON_BLOCK = re.compile(r"^( *)```python\n(.*?)^\1```", re.S | re.M)
README_URL = "http://127.0.0.1:8080"


def readme_python() -> list[str]:
    """The README's Python blocks, dedented as a reader pastes them."""
    return [
        "\n".join(line[len(indent):] for line in body.splitlines())
        for indent, body in PYTHON_BLOCK.findall(README.read_text(encoding="utf-8"))
    ]


@pytest.fixture
def home() -> Iterator[Path]:
    """A home of its own: the defaults put data dir and key under $XDG_DATA_HOME/memlane."""
    path = Path(tempfile.mkdtemp(prefix="memlane-first-"))
    os.chmod(path, 0o755)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def default_env(home: Path, port: int) -> dict[str, str]:
    """The embedded defaults (no config file, no MEMLANE_* but the port), data under `home`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMLANE_")}
    return {**env, "XDG_DATA_HOME": str(home / "share"), "MEMLANE_SERVER__PORT": str(port)}


def run(env: dict[str, str], cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(argv), env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=300)


def test_the_readmes_python_runs_as_pasted_against_the_embedded_defaults(
    home: Path, upstream: tuple[StubUpstream, str]
) -> None:
    proxy, client, in_process = readme_python()
    assert "OpenAI(" in proxy and "MemlaneClient" in client and "open_memory" in in_process
    for block in (client, in_process):  # the same calls, whichever way memlane is reached
        assert 'remember(user_id="alice", content="I live in Lisbon")' in block
        assert 'prompt_context("alice", "Where do I live?")' in block
    stub, upstream_url = upstream
    stub.any_model = True  # the README's "llama3.2"
    port = free_port()
    env = {**default_env(home, port), "MEMLANE_PROXY__UPSTREAM_URL": f"{upstream_url}/v1"}
    cwd = home  # no config.toml there: the defaults
    server = subprocess.Popen([MEMLANE, "serve"], env=env, cwd=cwd, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    try:
        _wait_until_ready(server, f"http://127.0.0.1:{port}")
        # The token as the README obtains it.
        created = run(env, cwd, MEMLANE, "keys", "create", "--tenant", "default", "--user",
                      "alice")
        assert created.returncode == 0, created.stderr
        keyed = {**env, "MEMLANE_TOKEN": created.stdout.strip()}
        chats_before = len(stub.chats())
        said = {}
        for name, block in (("proxy", proxy), ("client", client)):
            pasted = block.replace(README_URL, f"http://127.0.0.1:{port}")  # a free port here
            said[name] = run(keyed, cwd, sys.executable, "-c", pasted)
            assert said[name].returncode == 0, said[name].stderr
        said["in_process"] = run(env, cwd, sys.executable, "-c", in_process)
        assert said["in_process"].returncode == 0, said["in_process"].stderr
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=60)
    assert [c.body["model"] for c in stub.chats()[chats_before:]] == ["llama3.2"] * 2
    for printed in (said["client"].stdout, said["in_process"].stdout):
        assert printed.startswith("What the user has told you:\n- [identity] lives in: Lisbon")
    assert (home / "share" / "memlane" / "memory_encryption.key").is_file()


def test_the_first_start_says_it_created_the_key_where_and_to_back_it_up(home: Path) -> None:
    env = embedded_env(home, free_port())
    first = run(env, REPO, MEMLANE, "stats", "--all-tenants")
    assert first.returncode == 0, first.stderr
    key = home / "memory_encryption.key"
    assert f"created a new encryption key at {key}" in first.stderr
    assert "Back it up" in first.stderr
    again = run(env, REPO, MEMLANE, "stats", "--all-tenants")
    assert again.returncode == 0 and "encryption key" not in again.stderr


def test_a_busy_port_exits_with_75_and_exactly_one_line_on_stderr(home: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        refused = run(embedded_env(home, port), REPO, MEMLANE, "serve")
    assert refused.returncode == EXIT_PORT_IN_USE == 75
    lines = refused.stderr.splitlines()
    assert len(lines) == 1, refused.stderr
    assert f"cannot listen on 127.0.0.1:{port}: the port is in use" in lines[0]
    assert "listening" not in refused.stdout


def test_serve_says_listening_once_the_port_is_its_own(home: Path) -> None:
    port = free_port()
    env = embedded_env(home, port)
    server = subprocess.Popen([MEMLANE, "serve"], env=env, cwd=REPO, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    try:
        _wait_until_ready(server, f"http://127.0.0.1:{port}")  # answering on that port
    finally:
        server.send_signal(signal.SIGINT)
        output, _ = server.communicate(timeout=60)
    assert f"memlane listening on http://127.0.0.1:{port}" in output
    assert server.returncode == 0
