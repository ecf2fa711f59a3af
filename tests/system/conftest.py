"""System fixtures: memlane opened through the composition root on the session database."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from memlane.container import Memlane, open_memlane
from memlane.settings import Settings
from tests.conftest import scratch_database


def system_settings(database_url: str, key_path: Path, **memory: object) -> Settings:
    """Settings for the shared test database; the worker is off so tests control decay."""
    return Settings(
        database={"url": database_url, "pool_min_size": 1, "pool_max_size": 4},
        memory={"encryption_key_path": key_path, **memory},
        worker={"enabled": False},
    )


@pytest.fixture(scope="session")
def session_key_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The one key the shared test database is encrypted with (its fingerprint is stored)."""
    return tmp_path_factory.mktemp("keys") / "memory_encryption.key"


@pytest.fixture(scope="session")
async def system_database_url(database_url: str) -> AsyncIterator[str]:
    """A database of the system tests' own: memlane refuses to mint a key over data sealed
    with another (the shared database holds every other test's memories)."""
    async with scratch_database(database_url) as url:
        yield url


@pytest.fixture(scope="session")
async def memlane(system_database_url: str, session_key_path: Path) -> AsyncIterator[Memlane]:
    async with open_memlane(system_settings(system_database_url, session_key_path)) as opened:
        yield opened
