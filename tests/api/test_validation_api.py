"""Bad input gets a clear 4xx problem+json and changes nothing; every error is problem+json."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.api.conftest import TenantKeys, assert_problem, count

pytestmark = pytest.mark.integration
Client = httpx.AsyncClient


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"content": ""}, 422),
        ({"content": "   \n\t "}, 422),
        ({"content": "x" * (32 * 1024 + 1)}, 422),
        ({"content": "é" * (16 * 1024 + 1)}, 422),  # 2 bytes each: over by bytes, not chars
        ({"content": "I like tea.", "memory_type": "opinion"}, 422),
        ({"content": "I like tea.", "importance": 2}, 422),
        ({"content": "I like tea.", "importance": -0.1}, 422),
        ({"content": "I like tea.", "colour": "blue"}, 422),
        ({"content": "I like tea.", "tags": ["x" * 65]}, 422),
        ({"content": "I like tea.", "tags": [f"t{i}" for i in range(33)]}, 422),
        ({"content": "I like tea.", "tags": [""]}, 422),
        ({"content": 42}, 422),
        ({}, 422),
        ([], 422),
    ],
)
async def test_an_invalid_memory_is_rejected_and_nothing_is_stored(
    client: Client, tenant: TenantKeys, body: Any, status: int
) -> None:
    response = await client.post("/v1/memories", json=body, headers=tenant.alice)
    assert_problem(response, status)
    assert await count(client, tenant.alice) == 0


async def test_malformed_json_is_400_and_nothing_is_stored(
    client: Client, tenant: TenantKeys
) -> None:
    response = await client.post(
        "/v1/memories",
        content=b'{"content": "I like tea.",',
        headers={**tenant.alice, "Content-Type": "application/json"},
    )
    assert_problem(response, 400)
    assert await count(client, tenant.alice) == 0


async def test_a_batch_with_one_bad_item_stores_none(client: Client, tenant: TenantKeys) -> None:
    items = [{"content": "I like tea."}, {"content": ""}]
    response = await client.post(
        "/v1/memories/batch", json={"memories": items}, headers=tenant.alice
    )
    assert_problem(response, 422)
    assert await count(client, tenant.alice) == 0


async def test_an_invalid_edit_changes_nothing(client: Client, tenant: TenantKeys) -> None:
    created = await client.post(
        "/v1/memories", json={"content": "I like tea."}, headers=tenant.alice
    )
    memory_id = created.json()["memory"]["id"]
    for patch in ({"importance": 2}, {"memory_type": "opinion"}, {"content": ""}, {"x": 1}):
        response = await client.patch(f"/v1/memories/{memory_id}", json=patch, headers=tenant.alice)
        assert_problem(response, 422)
    after = await client.get(f"/v1/memories/{memory_id}", headers=tenant.alice)
    assert after.json()["content"] == "I like tea."
    assert after.json()["memory_type"] == created.json()["memory"]["memory_type"]


@pytest.mark.parametrize("memory_id", ["not-a-uuid", "123", "00000000-0000-0000-0000"])
async def test_a_malformed_memory_id_is_a_4xx_problem(
    client: Client, tenant: TenantKeys, memory_id: str
) -> None:
    response = await client.get(f"/v1/memories/{memory_id}", headers=tenant.alice)
    assert 400 <= response.status_code < 500
    assert_problem(response, response.status_code)


@pytest.mark.parametrize("limit", ["0", "1000", "-1", "ten"])
async def test_a_list_limit_out_of_range_is_a_4xx_problem(
    client: Client, tenant: TenantKeys, limit: str
) -> None:
    response = await client.get("/v1/memories", params={"limit": limit}, headers=tenant.alice)
    assert response.status_code in (400, 422)
    assert_problem(response, response.status_code)


@pytest.mark.parametrize(
    "params", [{"type": "opinion"}, {"min_importance": "2"}, {"cursor": "!!not-ours!!"}]
)
async def test_bad_list_filters_are_4xx_problems(
    client: Client, tenant: TenantKeys, params: dict[str, str]
) -> None:
    response = await client.get("/v1/memories", params=params, headers=tenant.alice)
    assert response.status_code in (400, 422)
    assert_problem(response, response.status_code)


async def test_search_without_a_query_or_with_a_bad_limit_is_a_4xx(
    client: Client, tenant: TenantKeys
) -> None:
    for params in ({}, {"q": ""}, {"q": "tea", "limit": "0"}, {"q": "tea", "limit": "101"}):
        response = await client.get("/v1/memories/search", params=params, headers=tenant.alice)
        assert response.status_code in (400, 422), params
        assert_problem(response, response.status_code)


async def test_context_rejects_unknown_fields_and_bad_limits(
    client: Client, tenant: TenantKeys
) -> None:
    for body in ({"query": "tea", "extra": 1}, {"query": ""}, {"query": "tea", "limit": 0}):
        assert_problem(await client.post("/v1/context", json=body, headers=tenant.alice), 422)


async def test_an_unknown_route_is_a_404_problem(client: Client, tenant: TenantKeys) -> None:
    assert_problem(await client.get("/v1/nothing-here", headers=tenant.alice), 404)


async def test_a_wrong_method_is_a_405_problem(client: Client, tenant: TenantKeys) -> None:
    assert_problem(await client.put("/v1/memories", json={}, headers=tenant.alice), 405)
