"""HttpMemoryContextAdapter (on AsyncMemlaneClient) against the real app served by uvicorn
on 127.0.0.1."""

from __future__ import annotations

from collections.abc import AsyncIterator
from uuid import uuid4

import asyncpg
import pytest

from memlane.adapters.http.context import HttpMemoryContextAdapter
from memlane.api.app import create_app
from memlane.api.deps import ApiServices
from memlane.domain.errors import ConfigurationError, InvalidMemory, StorageUnavailable
from memlane.domain.model import MemoryType, NewMemory, Owner
from memlane.domain.security.auth import Scope
from memlane.service.memory_service import MemoryService
from memlane.service.security.api_keys import KeyService
from tests.api.conftest import (  # noqa: F401 - session fixtures shared with the API tests
    build_service,
    embedder,
    key_service,
    memory_service,
    pool_readiness,
    services_opener,
)
from tests.client.conftest import free_port, live_server

pytestmark = pytest.mark.integration


@pytest.fixture
async def base_url(
    memory_service: MemoryService, key_service: KeyService, pg_pool: asyncpg.Pool, embedder  # noqa: F811
) -> AsyncIterator[str]:
    services = ApiServices(
        service=memory_service, keys=key_service, readiness=pool_readiness(pg_pool, embedder)
    )
    async with live_server(create_app(services_opener(services))) as url:
        yield url


async def test_the_remote_adapter_returns_the_same_context_as_the_service(
    base_url: str, memory_service: MemoryService, key_service: KeyService  # noqa: F811
) -> None:
    tenant = f"tenant-{uuid4().hex[:12]}"
    owner = Owner(tenant=tenant, user_id="alice")
    await memory_service.remember_many(
        owner,
        [
            NewMemory(content="My sister Ana lives in Lisbon.", memory_type=MemoryType.FACT),
            NewMemory(content="Actually my sister moved to Porto.",
                      memory_type=MemoryType.CORRECTION),
            NewMemory(content="I prefer trains over planes."),
        ],
    )
    token = (await key_service.create(tenant, [Scope.READ])).token
    async with HttpMemoryContextAdapter(base_url, token, timeout_ms=10_000) as remote:
        prompt = await remote.prompt_context("alice", "where does my sister live?", limit=3)
        memories = await remote.retrieve_context("alice", "where does my sister live?")
    # The block opens with the user's core facts (prefers trains), then the memories.
    assert prompt.memories and prompt.text.startswith("What the user has told you:")
    assert "\nKnown facts" in prompt.text
    assert prompt.memories[0].memory_type is MemoryType.CORRECTION
    assert "Porto" in prompt.text
    local = await memory_service.prompt_context(owner, "where does my sister live?", 3)
    assert [m.id for m in prompt.memories] == [m.id for m in local.memories]
    assert {m.content for m in memories} >= {"Actually my sister moved to Porto."}


async def test_a_bad_token_is_a_configuration_error(base_url: str) -> None:
    async with HttpMemoryContextAdapter(base_url, "ml_" + "A" * 43) as remote:
        with pytest.raises(ConfigurationError):
            await remote.prompt_context("alice", "anything")


async def test_a_user_outside_a_pinned_tokens_reach_is_a_configuration_error(
    base_url: str, key_service: KeyService  # noqa: F811
) -> None:
    token = (await key_service.create(f"t-{uuid4().hex[:8]}", [Scope.READ], "bob")).token
    async with HttpMemoryContextAdapter(base_url, token) as remote:
        with pytest.raises(ConfigurationError):
            await remote.prompt_context("alice", "anything")


async def test_a_rejected_query_is_invalid(base_url: str, key_service: KeyService) -> None:  # noqa: F811
    token = (await key_service.create(f"t-{uuid4().hex[:8]}", [Scope.READ])).token
    async with HttpMemoryContextAdapter(base_url, token) as remote:
        with pytest.raises(InvalidMemory):
            await remote.prompt_context("alice", "")


async def test_an_unreachable_server_is_storage_unavailable() -> None:
    url = f"http://127.0.0.1:{free_port()}"
    async with HttpMemoryContextAdapter(url, "ml_" + "A" * 43, timeout_ms=500) as remote:
        with pytest.raises(StorageUnavailable):
            await remote.prompt_context("alice", "anything")
