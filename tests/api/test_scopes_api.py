"""Scopes through the real app: a tenant's admin key acts on its own tenant only; acting on
every tenant takes an operator key (which only the CLI creates)."""

from __future__ import annotations

import httpx
import pytest

from memlane.domain.security.auth import Scope
from memlane.service.security.api_keys import KeyService
from tests.api.conftest import TenantKeys, bearer, count, make_tenant

pytestmark = pytest.mark.integration
Client = httpx.AsyncClient


FADED = (
    "The parking garage on Elm Street closes at nine.",
    "My cousin once owned a red bicycle.",
    "The quarterly tax form needs a blue pen.",
)


@pytest.fixture
async def other(key_service: KeyService) -> TenantKeys:
    """A second tenant beside `tenant`, with the same kinds of keys."""
    return await make_tenant(key_service)


async def _store_faded(client: Client, headers: dict[str, str], how_many: int) -> None:
    """Memories (distinct, so none merges) whose importance is at the cleanup floor (0.1)."""
    for content in FADED[:how_many]:
        response = await client.post(
            "/v1/memories", json={"content": content, "importance": 0.05}, headers=headers
        )
        assert response.status_code == 201, response.text


async def test_an_admin_keys_stats_count_only_its_own_tenant(
    client: Client, tenant: TenantKeys, other: TenantKeys
) -> None:
    await _store_faded(client, tenant.alice, 2)
    await _store_faded(client, other.bob, 3)
    mine = await client.get("/v1/memories/stats", headers=tenant.admin)
    theirs = await client.get("/v1/memories/stats", headers=other.admin)
    assert mine.json()["total"] == 2
    assert theirs.json()["total"] == 3


async def test_an_admin_keys_cleanup_never_touches_another_tenant(
    client: Client, tenant: TenantKeys, other: TenantKeys
) -> None:
    await _store_faded(client, tenant.alice, 2)
    await _store_faded(client, other.alice, 2)
    cleanup = await client.post("/v1/memories/cleanup", headers=tenant.admin)
    assert cleanup.json() == {"affected": 2, "scope": "tenant"}
    decay = await client.post("/v1/memories/decay", headers=tenant.admin)
    assert decay.json()["scope"] == "tenant"
    assert await count(client, tenant.alice) == 0
    assert await count(client, other.alice) == 2  # the other tenant's faded memories stay


async def test_an_operator_key_reaches_every_tenant(
    client: Client, tenant: TenantKeys, other: TenantKeys, key_service: KeyService
) -> None:
    await _store_faded(client, tenant.alice, 1)
    await _store_faded(client, other.bob, 1)
    operator = bearer((await key_service.create("ops", [Scope.OPERATOR])).token)
    stats = await client.get("/v1/memories/stats", headers=operator)
    assert stats.json()["total"] >= 2
    cleanup = await client.post("/v1/memories/cleanup", headers=operator)
    assert cleanup.json()["scope"] == "all" and cleanup.json()["affected"] >= 2
    assert await count(client, tenant.alice) == 0
    assert await count(client, other.bob) == 0


async def test_an_operator_key_naming_a_user_acts_for_that_user_of_its_own_tenant(
    client: Client, key_service: KeyService
) -> None:
    operator = bearer((await key_service.create("ops-x", [Scope.OPERATOR])).token)
    stored = await client.post(
        "/v1/memories", json={"content": "I keep bees.", "user_id": "ann"}, headers=operator
    )
    assert stored.status_code == 201, stored.text
    one = await client.get("/v1/memories/stats", params={"user_id": "ann"}, headers=operator)
    assert one.json()["total"] == 1
