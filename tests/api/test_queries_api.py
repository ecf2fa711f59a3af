"""Search, prompt context, stats, export, erasure and maintenance through the real app."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.api.conftest import TenantKeys, assert_problem, count

pytestmark = pytest.mark.integration
Client = httpx.AsyncClient

FACTS = [
    "My dog is called Bruno and he is a beagle.",
    "I prefer window seats on long flights.",
    "My daughter's birthday is on the 3rd of May.",
]


async def _seed(client: Client, headers: dict[str, str]) -> list[str]:
    response = await client.post(
        "/v1/memories/batch", json={"memories": [{"content": c} for c in FACTS]}, headers=headers
    )
    assert response.status_code == 201, response.text
    return [r["memory"]["id"] for r in response.json()["results"]]


async def test_search_ranks_the_matching_memory_first(client: Client, tenant: TenantKeys) -> None:
    await _seed(client, tenant.alice)
    response = await client.get(
        "/v1/memories/search", params={"q": "what is the name of my dog?"}, headers=tenant.alice
    )
    assert response.status_code == 200, response.text
    results = response.json()["results"]
    assert results[0]["memory"]["content"] == FACTS[0]
    assert results[0]["similarity"] > results[-1]["similarity"]
    assert {"similarity", "relevance", "memory"} <= results[0].keys()


async def test_context_returns_memories_and_the_rendered_prompt_block(
    client: Client, tenant: TenantKeys
) -> None:
    await _seed(client, tenant.alice)
    response = await client.post(
        "/v1/context", json={"query": "tell me about my dog", "limit": 2}, headers=tenant.alice
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert 1 <= len(body["memories"]) <= 2
    assert any(m["content"] == FACTS[0] for m in body["memories"])
    assert FACTS[0] in body["context"] and "\nKnown facts" in body["context"]
    # The block opens with the user's core facts (the profile, docs/facts.md), read by memlane.
    assert body["context"].startswith("What the user has told you:")


async def test_stats_count_the_users_memories_by_type(client: Client, tenant: TenantKeys) -> None:
    await _seed(client, tenant.alice)
    body = (await client.get("/v1/memories/stats", headers=tenant.alice)).json()
    assert body["total"] == 3 and sum(body["by_type"].values()) == 3
    assert body["with_embeddings"] == 3 and 0 < body["avg_importance"] <= 1


async def test_export_streams_every_memory_as_ndjson(client: Client, tenant: TenantKeys) -> None:
    ids = await _seed(client, tenant.alice)
    response = await client.get("/v1/memories/export", headers=tenant.alice)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in response.text.splitlines()]
    # The graph between them follows the memories (docs/graph.md, export and import).
    records = [r for r in lines if "record" not in r]
    assert {r["record"] for r in lines if "record" in r} <= {"edge", "entity", "fact"}
    assert sorted(r["id"] for r in records) == sorted(ids)
    assert sorted(r["content"] for r in records) == sorted(FACTS)
    assert all(r["user_id"] == "alice" for r in records)


async def test_export_of_a_user_without_memories_is_empty(
    client: Client, tenant: TenantKeys
) -> None:
    response = await client.get("/v1/memories/export", headers=tenant.bob)
    assert response.status_code == 200 and response.text == ""


async def test_erasing_needs_confirmation_and_then_removes_only_that_user(
    client: Client, tenant: TenantKeys
) -> None:
    await _seed(client, tenant.alice)
    await _seed(client, tenant.bob)
    assert_problem(await client.delete("/v1/memories", headers=tenant.alice), 422)
    assert await count(client, tenant.alice) == 3
    response = await client.delete(
        "/v1/memories", params={"confirm": "true"}, headers=tenant.alice
    )
    assert response.status_code == 200 and response.json() == {"deleted": 3}
    assert await count(client, tenant.alice) == 0
    assert await count(client, tenant.bob) == 3


async def test_a_user_key_runs_decay_and_cleanup_for_its_own_user(
    client: Client, tenant: TenantKeys
) -> None:
    await _seed(client, tenant.alice)
    decay = await client.post("/v1/memories/decay", headers=tenant.alice)
    assert decay.status_code == 200 and decay.json()["scope"] == "user"
    cleanup = await client.post("/v1/memories/cleanup", headers=tenant.alice)
    assert cleanup.status_code == 200 and cleanup.json() == {"affected": 0, "scope": "user"}
    assert await count(client, tenant.alice) == 3  # fresh memories are far above the floor


async def test_an_admin_key_runs_maintenance_for_its_own_tenant(
    client: Client, tenant: TenantKeys
) -> None:
    decay = await client.post("/v1/memories/decay", headers=tenant.admin)
    assert decay.status_code == 200 and decay.json()["scope"] == "tenant"
    one = await client.post(
        "/v1/memories/cleanup", params={"user_id": "alice"}, headers=tenant.admin
    )
    assert one.status_code == 200 and one.json()["scope"] == "user"


async def test_a_read_only_key_cannot_run_maintenance(client: Client, tenant: TenantKeys) -> None:
    assert_problem(await client.post("/v1/memories/decay", headers=tenant.alice_reader), 403)
