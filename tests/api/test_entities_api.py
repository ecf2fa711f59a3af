"""Entities through the real app and model: a question about someone goes through the
entity, export carries the graph, erasure leaves no entity."""

from __future__ import annotations

import json

import asyncpg
import httpx
import pytest

from tests.api.conftest import TenantKeys

pytestmark = pytest.mark.integration

RAVI = [
    "My colleague Ravi is moving to the Munich office in June",
    "Ravi recommended the Thai place on Elm Street",
    "Need to return the drill I borrowed from Ravi",
    "The quarterly freight spreadsheet needs the new container rates before Ravi signs it off",
]
OTHERS = [
    "The garden needs watering twice a week in summer",
    "I prefer aisle seats on long flights",
    "My sister Priya is learning the cello",
    "The car is due for its inspection in October",
    "I am allergic to penicillin",
    "Our team standup moved to 9:30",
    "I want to read more science fiction this year",
    "Mum's birthday is on the 14th of May",
]


async def store(client: httpx.AsyncClient, headers: dict[str, str]) -> dict[str, str]:
    response = await client.post(
        "/v1/memories/batch",
        json={"memories": [{"content": c} for c in [*RAVI, *OTHERS]]}, headers=headers,
    )
    assert response.status_code == 200, response.text
    return {r["memory"]["content"]: r["memory"]["id"] for r in response.json()["results"]}


async def test_what_do_you_know_about_ravi_brings_every_memory_that_names_him(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    await store(client, tenant.alice)
    found = (await client.post(
        "/v1/context", json={"query": "What do you know about Ravi?", "limit": 5},
        headers=tenant.alice,
    )).json()["memories"]
    assert {m["content"] for m in found} >= set(RAVI)
    roles = {m["content"]: m["role"] for m in found}
    # Its cosine to the question is below rag_threshold: the entity brought it.
    assert roles[RAVI[3]] == "entity"
    # None of Bob's (he has none): the entity index is per owner.
    theirs = (await client.post(
        "/v1/context", json={"query": "What do you know about Ravi?"}, headers=tenant.bob,
    )).json()["memories"]
    assert theirs == []


async def test_export_carries_entities_and_edges_and_erasure_leaves_none(
    client: httpx.AsyncClient, tenant: TenantKeys, pg_pool: asyncpg.Pool
) -> None:
    ids = await store(client, tenant.alice)
    lines = [json.loads(line) for line in
             (await client.get("/v1/memories/export", headers=tenant.alice)).text.splitlines()]
    entities = {r["name"]: r for r in lines if r.get("record") == "entity"}
    assert entities["Ravi"]["kind"] == "person"
    assert {m["memory"] for m in entities["Ravi"]["mentions"]} == {ids[c] for c in RAVI}
    assert entities["Priya"]["kind"] == "person" and "Munich" in entities
    edges = [r for r in lines if r.get("record") == "edge"]
    assert all(e["source"] in ids.values() and e["target"] in ids.values() for e in edges)
    erased = await client.delete(
        "/v1/memories", params={"confirm": "true"}, headers=tenant.alice
    )
    assert erased.status_code in (200, 204), erased.text
    for table in ("memory_entities", "memory_mentions", "memory_edges"):
        left = await pg_pool.fetchval(
            f"SELECT count(*) FROM {table} WHERE tenant = $1 AND user_id = 'alice'",
            tenant.tenant,
        )
        assert left == 0, table
