"""Integration fixtures: the PostgreSQL MemoryPorts, the real ONNX model, the real service."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest
import pytest_asyncio

from memlane.adapters.embedding.catalog import MULTILINGUAL_E5
from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.composition.services import memory_service as build_memory_service
from memlane.domain.policy import MemoryPolicy, RecallTuning
from memlane.ports.storage import MemoryPorts
from memlane.service.memory_service import MemoryService

EMBEDDING_DIMENSION = 384


@pytest.fixture
def dimension() -> int:
    return EMBEDDING_DIMENSION


@pytest.fixture
def ports(pg_pool: asyncpg.Pool) -> MemoryPorts:
    return postgres_memory_ports(pg_pool, dimension=EMBEDDING_DIMENSION)


@pytest_asyncio.fixture(scope="session")
async def embedder() -> AsyncIterator[OnnxEmbeddingAdapter]:
    """The real model, loaded once for every integration test."""
    adapter = OnnxEmbeddingAdapter()
    await adapter.warm_up()
    yield adapter
    await adapter.close()


@pytest_asyncio.fixture(scope="session")
async def e5() -> AsyncIterator[OnnxEmbeddingAdapter]:
    """multilingual-e5-small, the default model, loaded once for the tests that name it
    (its int8 build is derived into the user cache once, ~20 s)."""
    adapter = OnnxEmbeddingAdapter(MULTILINGUAL_E5)
    await adapter.warm_up()
    yield adapter
    await adapter.close()


@pytest.fixture
async def fresh_pool(fresh_database_url: str) -> AsyncIterator[asyncpg.Pool]:
    """A pool on a database of its own (installation-wide state: the root key, the
    fingerprint, every row of a table)."""
    from memlane.adapters.postgres.pool import create_pool

    pool = await create_pool(fresh_database_url, min_size=1, max_size=4)
    try:
        yield pool
    finally:
        await pool.close()


def build_service(
    pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter, key: bytes, **recall: Any
) -> MemoryService:
    """The real stack: PostgreSQL, ONNX, XChaCha20 with `key`, Snowball keywords."""
    return build_memory_service(
        postgres_memory_ports(pool, dimension=embedder.dimension),
        embedder,
        XChaChaEncryptionAdapter(key),
        SnowballKeywordAdapter(),
        MemoryPolicy(recall=RecallTuning(**recall)),
    )


@pytest.fixture
def service(pg_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter) -> MemoryService:
    return build_service(pg_pool, embedder, os.urandom(32))
