"""Integration fixtures: the PostgreSQL MemoryPort over the session pool."""

from __future__ import annotations

import asyncpg
import pytest

from memlane.adapters.postgres.memory_adapter import PostgresMemoryAdapter

EMBEDDING_DIMENSION = 384


@pytest.fixture
def dimension() -> int:
    return EMBEDDING_DIMENSION


@pytest.fixture
def memory_port(pg_pool: asyncpg.Pool) -> PostgresMemoryAdapter:
    return PostgresMemoryAdapter(pg_pool, dimension=EMBEDDING_DIMENSION)
