"""Authentication and reach: 401 without a good token, 403 without the scope, 404 outside reach."""

from __future__ import annotations

import httpx
import pytest

from memlane.domain.security.auth import Scope
from tests.api.conftest import TenantKeys, assert_problem, bearer, count, make_tenant

pytestmark = pytest.mark.integration
Client = httpx.AsyncClient


async def _store(client: Client, headers: dict[str, str], content: str) -> str:
    response = await client.post("/v1/memories", json={"content": content}, headers=headers)
    assert response.status_code == 201, response.text
    memory_id: str = response.json()["memory"]["id"]
    return memory_id


async def test_a_request_without_a_token_is_401_with_a_bearer_challenge(client: Client) -> None:
    response = await client.get("/v1/memories", params={"user_id": "x"})
    assert_problem(response, 401)
    assert response.headers["www-authenticate"].startswith("Bearer")


@pytest.mark.parametrize(
    "authorization",
    ["Bearer ml_" + "A" * 43, "Bearer nonsense", "Basic dXNlcjpwYXNz", "Bearer "],
)
async def test_an_unknown_or_malformed_token_is_401(client: Client, authorization: str) -> None:
    response = await client.get("/v1/memories/stats", headers={"Authorization": authorization})
    assert_problem(response, 401)
    assert "www-authenticate" in response.headers


async def test_a_revoked_token_is_401(client: Client, tenant: TenantKeys) -> None:
    created = await tenant.keys.create(tenant.tenant, [Scope.READ], user_id="alice")
    assert (await client.get("/v1/memories/stats", headers=bearer(created.token))).is_success
    await tenant.keys.revoke(created.key.id)
    assert_problem(await client.get("/v1/memories/stats", headers=bearer(created.token)), 401)


async def test_a_read_only_key_cannot_write_and_nothing_is_stored(
    client: Client, tenant: TenantKeys
) -> None:
    response = await client.post(
        "/v1/memories", json={"content": "I like jazz."}, headers=tenant.alice_reader
    )
    assert_problem(response, 403)
    assert await count(client, tenant.alice) == 0


async def test_a_write_only_key_cannot_read(client: Client, tenant: TenantKeys) -> None:
    writer = bearer(await tenant.token([Scope.WRITE], "alice"))
    assert_problem(await client.get("/v1/memories", headers=writer), 403)


async def test_another_users_memory_is_not_found(client: Client, tenant: TenantKeys) -> None:
    memory_id = await _store(client, tenant.alice, "My locker code is 4711.")
    for method in ("get", "delete"):
        response = await getattr(client, method)(f"/v1/memories/{memory_id}", headers=tenant.bob)
        assert_problem(response, 404)
    patch = await client.patch(
        f"/v1/memories/{memory_id}", json={"content": "hijacked"}, headers=tenant.bob
    )
    assert_problem(patch, 404)
    still = await client.get(f"/v1/memories/{memory_id}", headers=tenant.alice)
    assert still.json()["content"] == "My locker code is 4711."


async def test_another_tenants_memory_is_not_found_even_for_its_admin(
    client: Client, tenant: TenantKeys
) -> None:
    memory_id = await _store(client, tenant.alice, "I am allergic to peanuts.")
    other = await make_tenant(tenant.keys)
    for headers, params in ((other.alice, {}), (other.admin, {"user_id": "alice"})):
        response = await client.get(f"/v1/memories/{memory_id}", params=params, headers=headers)
        assert_problem(response, 404)
    assert await count(client, other.alice) == 0


async def test_a_pinned_key_naming_another_user_is_not_found(
    client: Client, tenant: TenantKeys
) -> None:
    response = await client.get("/v1/memories", params={"user_id": "bob"}, headers=tenant.alice)
    assert_problem(response, 404)
    stored = await client.post(
        "/v1/memories", json={"content": "I like tea.", "user_id": "bob"}, headers=tenant.alice
    )
    assert_problem(stored, 404)
    assert await count(client, tenant.bob) == 0


async def test_an_unpinned_key_must_name_the_user(client: Client, tenant: TenantKeys) -> None:
    body = assert_problem(
        await client.post("/v1/memories", json={"content": "I like tea."}, headers=tenant.writer),
        422,
    )
    assert "user_id" in body["detail"]
    named = await client.post(
        "/v1/memories", json={"content": "I like tea.", "user_id": "carol"}, headers=tenant.writer
    )
    assert named.status_code == 201 and named.json()["memory"]["user_id"] == "carol"


async def test_an_unpinned_key_reaches_every_user_of_its_tenant(
    client: Client, tenant: TenantKeys
) -> None:
    memory_id = await _store(client, tenant.alice, "My car is a red Fiat.")
    got = await client.get(
        f"/v1/memories/{memory_id}", params={"user_id": "alice"}, headers=tenant.writer
    )
    assert got.status_code == 200 and got.json()["content"] == "My car is a red Fiat."
