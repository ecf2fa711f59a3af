"""Shared fixtures: a PostgreSQL with pgvector for the session, its pool, a fresh owner per test."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from urllib.parse import urlsplit, urlunsplit
from uuid import uuid4

import asyncpg
import pytest
import pytest_asyncio
from hypothesis import HealthCheck, settings

from memlane.domain.model import Owner
from tests.stubs.ollama_chat import StubOllamaChat

# Timing is not a property: a loaded CI box must not fail a property test for being slow.
settings.register_profile("memlane", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("memlane")

TEST_DATABASE_URL_ENV = "MEMLANE_TEST_DATABASE_URL"

# The erasure journal's default directory is under $XDG_STATE_HOME: the tests' installations
# keep theirs in a temp dir of the session (inherited by the processes they start), never in
# the home directory of whoever runs them.
_STATE_HOME = tempfile.mkdtemp(prefix="memlane-test-state-")
os.environ["XDG_STATE_HOME"] = _STATE_HOME
atexit.register(shutil.rmtree, _STATE_HOME, ignore_errors=True)

PGVECTOR_IMAGE = "pgvector/pgvector:pg17"


def _docker_answers() -> bool:
    """True only when a Docker engine really responds (there is none on many dev boxes)."""
    try:
        import docker

        client = docker.from_env(timeout=2)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except Exception:  # no SDK, no socket, no permission: all mean "no Docker"
        return False


@pytest.fixture(scope="session")
def database_url() -> Iterator[str]:
    """MEMLANE_TEST_DATABASE_URL, else a pgvector container if Docker answers, else the
    embedded server in a fresh temp dir, stopped and removed when the session's process exits.

    The dir is not under pytest's tmp_path: pytest keeps that tree mode 0700, and pgserver
    runs PostgreSQL as its own system user when started by root."""
    configured = os.environ.get(TEST_DATABASE_URL_ENV, "").strip()
    if configured:
        yield configured
        return
    if _docker_answers():
        from testcontainers.postgres import PostgresContainer

        with PostgresContainer(PGVECTOR_IMAGE, driver=None) as container:
            yield container.get_connection_url()
        return
    from memlane.adapters.postgres.embedded import start_embedded

    parent = tempfile.mkdtemp(prefix="memlane-test-pg-")
    # Registered before the server's own exit hook, so it runs after the server stopped.
    atexit.register(shutil.rmtree, parent, ignore_errors=True)
    yield start_embedded(os.path.join(parent, "data"), delete_on_exit=True)


@pytest.fixture(scope="session")
async def migrated_database_url(database_url: str) -> str:
    """The test database with every migration applied, once per session."""
    from memlane.adapters.postgres.migrations import migrate

    await migrate(database_url)
    return database_url


@pytest.fixture(scope="session")
async def pg_pool(migrated_database_url: str) -> AsyncIterator[asyncpg.Pool]:
    from memlane.adapters.postgres.pool import create_pool

    pool = await create_pool(migrated_database_url, min_size=1, max_size=8)
    try:
        yield pool
    finally:
        await pool.close()


@pytest.fixture
def owner() -> Owner:
    """A tenant and user no other test uses, so tests on a shared database need no cleanup."""
    suffix = uuid4().hex[:12]
    return Owner(tenant=f"tenant-{suffix}", user_id=f"user-{suffix}")


@asynccontextmanager
async def scratch_database(server_url: str, *, migrated: bool = True) -> AsyncIterator[str]:
    """A database of its own on the test server (migrated unless asked not), dropped
    afterwards."""
    from memlane.adapters.postgres.migrations import migrate

    name = f"memlane_{uuid4().hex[:12]}"
    admin = await asyncpg.connect(server_url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    url = urlunsplit(urlsplit(server_url)._replace(path=f"/{name}"))
    try:
        if migrated:
            await migrate(url)
        yield url
    finally:
        admin = await asyncpg.connect(server_url)
        try:
            await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        finally:
            await admin.close()


@pytest.fixture
async def fresh_database_url(database_url: str) -> AsyncIterator[str]:
    """A database of its own, for the few tests that look at the whole installation (every
    row, the key fingerprint): the shared one holds every other test's memories."""
    async with scratch_database(database_url) as url:
        yield url


@pytest_asyncio.fixture
async def ollama_chat() -> AsyncIterator[StubOllamaChat]:
    """A loopback stand-in for Ollama's /api/chat (tests/stubs/ollama_chat.py)."""
    server = StubOllamaChat()
    await server.start()
    yield server
    await server.stop()
