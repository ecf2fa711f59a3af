"""An installation for the erasure-against-backups tests: two users' data, backups, and every
way a user's data can be read (the database's owner tables, REST, MCP, the inspector, export)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg
import httpx
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.e2e.test_serve_process import (
    MEMLANE,
    REPO,
    _wait_until_ready,
    embedded_env,
    free_port,
    start_serve,
)
from tests.e2e.test_serve_shutdown import _stop_leftover_server

TENANT = "backup"
FIXTURES = REPO / "tests" / "fixtures" / "imports"
WAIT_S = 60
CSRF = re.compile(r'name="_csrf" value="([^"]+)"')
# What A wrote, in words no other user's data holds: none may be readable after the restore.
A_MARKERS = ("quokka", "ZANZIBAR-7731", "sourdough", "acetone", "Lisbon")
# B's memories sit at their type's floor, so their importance (computed at the time of each
# export) does not move with the clock and two exports can be compared byte for byte.
B_MEMORIES = (
    ("I am allergic to hazelnuts", "fact", 0.3),
    ("I prefer window seats on trains", "preference", 0.25),
    ("Actually my flat is on the fourth floor, not the third", "correction", 0.35),
)


@dataclass
class Install:
    """A memlane home: key, erasure journal (under state/) and the embedded data dir."""

    home: Path
    env: dict[str, str]
    tokens: dict[str, str] = field(default_factory=dict)

    @property
    def data_dir(self) -> Path:
        return self.home / "data"

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.env['MEMLANE_SERVER__PORT']}"

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([MEMLANE, *args], env=self.env, cwd=REPO, capture_output=True,
                              text=True, timeout=300)

    def token(self, user: str) -> str:
        if user not in self.tokens:
            made = self.cli("keys", "create", "--tenant", TENANT, "--user", user)
            assert made.returncode == 0, made.stderr
            self.tokens[user] = made.stdout.strip()
        return self.tokens[user]

    def headers(self, user: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token(user)}"}

    @contextmanager
    def serving(self) -> Iterator[subprocess.Popen[str]]:
        """`memlane serve` until the block ends; no postmaster outlives it."""
        process = start_serve(self.env)
        try:
            _wait_until_ready(process, self.base_url)
            yield process
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
                try:
                    process.wait(timeout=WAIT_S)
                except subprocess.TimeoutExpired:
                    process.kill()
            self.wait_stopped()

    def wait_stopped(self) -> None:
        """Until the embedded server is down: the last memlane process (serve, or an MCP
        server or CLI command exiting just after it) stops it; "memlane stopped" means that."""
        deadline = time.monotonic() + WAIT_S
        while (self.data_dir / "postmaster.pid").exists():
            if time.monotonic() > deadline:
                _stop_leftover_server(self.data_dir)
                raise AssertionError("the embedded PostgreSQL outlived every memlane process")
            time.sleep(0.2)

    def export(self, user: str) -> bytes:
        done = self.cli("export", "--tenant", TENANT, "--user", user)
        assert done.returncode == 0, done.stderr
        return done.stdout.encode()

    def dsn(self) -> str:
        found = self.cli("db-url")
        assert found.returncode == 0, found.stderr
        return found.stdout.strip()

    def copy_data(self, to: Path) -> None:
        """A backup by file copy, taken with memlane stopped: owners and modes kept (`cp -a`;
        run as root, the embedded server's files belong to its own system user)."""
        subprocess.run(["cp", "-a", str(self.data_dir), str(to)], check=True)

    def restore_data(self, copy: Path) -> None:
        shutil.rmtree(self.data_dir)
        subprocess.run(["cp", "-a", str(copy), str(self.data_dir)], check=True)


@contextmanager
def installation(prefix: str, like: Install | None = None) -> Iterator[Install]:
    """A fresh home, or a copy of `like`'s whole home (key, journal, data dir, taken with
    memlane stopped) on a port of its own: one populated world serves several tests."""
    home = Path(tempfile.mkdtemp(prefix=prefix))
    os.chmod(home, 0o755)
    if like is not None:
        subprocess.run(["cp", "-a", f"{like.home}/.", str(home)], check=True)
    env = embedded_env(home, free_port(), MEMLANE_WORKER__ENABLED="false")
    try:
        yield Install(home, env, dict(like.tokens) if like else {})
    finally:
        _stop_leftover_server(home / "data")
        shutil.rmtree(home, ignore_errors=True)


def populate(install: Install) -> list[str]:
    """A: memories with tags and metadata, a fact read from one, a stated fact and an imported
    Claude chat; B: memories at their floors with tags and metadata, and a stated fact. The
    ids of A's memories."""
    with httpx.Client(base_url=install.base_url, timeout=WAIT_S) as http:
        a, b = install.headers("alice"), install.headers("bob")
        ids = []
        for content in ("My pet quokka is called Pip", "I live in Lisbon near the river",
                        "The safe code is ZANZIBAR-7731"):
            made = http.post("/v1/memories", headers=a, json={
                "content": content, "tags": ["quokka-notes"],
                "metadata": {"source": "ZANZIBAR-7731 notebook"}})
            assert made.status_code == 201, made.text
            ids.append(made.json()["memory"]["id"])
        stated = http.post("/v1/facts", headers=a, json={"relation": "likes", "object": "quokka"})
        assert stated.status_code == 201, stated.text
        imported = http.post("/v1/imports", params={"format": "claude"}, headers=a,
                             content=(FIXTURES / "claude_conversations.json").read_bytes())
        assert imported.status_code == 200, imported.text
        for content, kind, importance in B_MEMORIES:
            made = http.post("/v1/memories", headers=b, json={
                "content": content, "memory_type": kind, "importance": importance,
                "tags": ["bob-notes"], "metadata": {"source": "diary"}})
            assert made.status_code == 201, made.text
        stated = http.post("/v1/facts", headers=b, json={"relation": "likes", "object": "tea"})
        assert stated.status_code == 201, stated.text
    return ids


def data_key_ids(install: Install, user: str) -> list[str]:
    return asyncio.run(_fetch_column(
        install.dsn(), "SELECT id::text FROM data_keys WHERE tenant = $1 AND user_id = $2", user))


async def _fetch_column(dsn: str, query: str, user: str) -> list[Any]:
    connection = await asyncpg.connect(dsn)
    try:
        return [r[0] for r in await connection.fetch(query, TENANT, user)]
    finally:
        await connection.close()


def owner_rows(dsn: str, user: str) -> dict[str, int]:
    """Rows of `user` in every table with an owner (tenant, user_id), audit tombstones and the
    erasure's own record and key apart; API keys are the operator's credentials, not data."""
    return asyncio.run(_owner_rows(dsn, user))


async def _owner_rows(dsn: str, user: str) -> dict[str, int]:
    connection = await asyncpg.connect(dsn)
    try:
        tables = [r[0] for r in await connection.fetch(
            "SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' "
            "AND column_name IN ('tenant', 'user_id') GROUP BY table_name "
            "HAVING count(*) = 2 ORDER BY 1")]
        counts = {}
        for table in tables:
            where = "tenant = $1 AND user_id = $2"
            if table == "audit_events":  # tombstones: kind 'erased', no payload
                where += " AND NOT (kind = 'erased' AND payload IS NULL) AND kind <> 'erasure'"
            if table in ("api_keys", "data_keys"):
                continue
            counts[table] = await connection.fetchval(
                f'SELECT count(*) FROM "{table}" WHERE {where}', TENANT, user)
        return counts
    finally:
        await connection.close()


def readable_markers(install: Install, user: str, memory_ids: list[str]) -> list[str]:
    """Which of A's markers any read surface still shows: REST, the inspector, MCP, export."""
    seen: list[str] = []
    with httpx.Client(base_url=install.base_url, timeout=WAIT_S,
                      headers=install.headers(user)) as http:
        responses = [
            http.get("/v1/memories"), http.get("/v1/memories/search", params={"q": "my pet"}),
            http.post("/v1/context", json={"query": "Where do I live? my pet"}),
            http.get("/v1/facts", params={"current": "all"}), http.get("/v1/profile"),
            http.get("/v1/topics"), http.get("/v1/memories/export"),
            *(http.get(f"/v1/memories/{i}") for i in memory_ids),
            *(http.get(f"/v1/memories/{i}/history") for i in memory_ids),
        ]
        for response in responses:
            assert response.status_code < 500, response.text
            seen += [m for m in A_MARKERS if m.lower() in response.text.lower()]
    seen += [m for m in A_MARKERS if m.lower() in _inspector_pages(install, user).lower()]
    seen += [m for m in A_MARKERS if m.lower() in asyncio.run(_over_mcp(install, user)).lower()]
    exported = install.export(user).decode()
    seen += [m for m in A_MARKERS if m.lower() in exported.lower()]
    return seen


def _inspector_pages(install: Install, user: str) -> str:
    with httpx.Client(base_url=install.base_url, timeout=WAIT_S) as ui:
        form = ui.get("/ui/sign-in")
        csrf = CSRF.search(form.text)
        assert csrf, form.text[:300]
        signed = ui.post("/ui/sign-in", data={"_csrf": csrf.group(1), "token": install.token(user)})
        assert signed.status_code == 303, signed.text
        pages = [ui.get(p) for p in ("/ui/memories", "/ui/memories?q=pet", "/ui/facts")]
        assert all(p.status_code == 200 for p in pages), [p.status_code for p in pages]
        return "".join(p.text for p in pages)


async def _over_mcp(install: Install, user: str) -> str:
    server = StdioServerParameters(command=MEMLANE, env=install.env, cwd=REPO,
                                   args=["mcp", "--tenant", TENANT, "--user", user])
    texts = []
    async with Client(server, read_timeout_seconds=120) as client:
        for tool, arguments in (("recall", {"query": "my pet, where I live, bread"}),
                                ("get_context", {"query": "Where do I live?"}),
                                ("list_facts", {"current": None}), ("profile", {})):
            result = await client.call_tool(tool, arguments)
            texts.append(json.dumps(result.structured_content))
    return "".join(texts)
