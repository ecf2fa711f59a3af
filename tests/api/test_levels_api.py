"""Levels of detail through the real app: a memory at each tier, long input in chained
parts, the token-budgeted context and its expansion (docs/levels.md)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import asyncpg
import httpx
import pytest

from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.api.app import create_app
from memlane.api.config import ApiConfig
from memlane.api.deps import ApiServices
from memlane.domain.policy import DetailTuning, MemoryPolicy
from tests.api.conftest import (
    TenantKeys,
    assert_problem,
    build_service,
    serve,
    services_opener,
)

pytestmark = pytest.mark.integration
Client = httpx.AsyncClient

TOPICS = (
    "Mina practises the cello every evening and plays Bach suites with a quartet on {i}.",
    "The quarterly budget for server hosting rose by {i} percent after the database upgrade.",
    "Grandpa Tomas told the story of sailing to Madeira in {i}, when the storm broke the mast.",
)
LONG = " ".join(
    f"Day {i}: we sanded the kitchen cabinets, painted them sage green and fitted brass "
    f"handles; the plumber came about the sink on the {i}th." for i in range(1, 25)
)


@pytest.fixture
async def detailed(
    api_services: ApiServices, pg_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter
) -> AsyncIterator[Client]:
    """The app with the level-of-detail prompt block switched on (it is off by default)."""
    policy = MemoryPolicy(cleanup_grace_days=0, detail=DetailTuning(level_of_detail=True))
    services = replace(api_services, service=build_service(pg_pool, embedder, policy))
    async with serve(create_app(services_opener(services), ApiConfig())) as http:
        yield http


async def _remember(client: Client, headers: dict[str, str], content: str) -> dict[str, object]:
    response = await client.post("/v1/memories", json={"content": content}, headers=headers)
    assert response.status_code == 201, response.text
    body: dict[str, object] = response.json()
    return body


async def test_a_memory_answers_at_each_tier(client: Client, tenant: TenantKeys) -> None:
    assert 1_000 < len(LONG) <= 5_000
    memory_id = (await _remember(client, tenant.alice, LONG))["memory"]["id"]  # type: ignore[index]
    tiers = {}
    for tier in ("L0", "L1", "L2"):
        response = await client.get(f"/v1/memories/{memory_id}", params={"tier": tier},
                                    headers=tenant.alice)
        assert response.status_code == 200, response.text
        tiers[tier] = response.json()
        assert tiers[tier]["tier"] == tier
    assert tiers["L2"]["content"] == LONG
    assert 0 < len(tiers["L0"]["content"]) <= 120
    assert tiers["L0"]["content"] == tiers["L2"]["abstract"]
    assert 120 < len(tiers["L1"]["content"]) <= 1_000
    assert tiers["L2"]["provenance"] == "stated" and tiers["L2"]["confidence"] == 1.0
    default = (await client.get(f"/v1/memories/{memory_id}", headers=tenant.alice)).json()
    assert default["tier"] == "L2" and default["content"] == LONG
    bad = await client.get(f"/v1/memories/{memory_id}", params={"tier": "L3"},
                           headers=tenant.alice)
    assert_problem(bad, 422)


async def test_long_input_is_stored_as_chained_parts_and_never_truncated(
    client: Client, tenant: TenantKeys
) -> None:
    text = " ".join(t.format(i=1900 + i) for t in TOPICS for i in range(50))
    body = await _remember(client, tenant.alice, text)
    ids = [body["memory"]["id"], *body["parts"]]  # type: ignore[index]
    assert len(text) > 10_000 and len(ids) >= 3
    contents = [(await client.get(f"/v1/memories/{i}", headers=tenant.alice)).json()["content"]
                for i in ids]
    assert all(len(c) <= 5_000 for c in contents)
    assert "".join(contents).replace(" ", "") == text.replace(" ", "")


async def test_by_default_the_context_is_whole_lines_and_names_no_levels(
    client: Client, tenant: TenantKeys
) -> None:
    said = TOPICS[0].format(i=1)
    await _remember(client, tenant.alice, said)
    response = await client.post("/v1/context", json={
        "query": "Does Mina practise the cello?", "token_budget": 5, "include_profile": False},
        headers=tenant.alice)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["levels"] == []
    assert said in body["context"]  # the whole line, whatever the token budget asked


async def test_the_context_holds_its_token_budget_and_expands_on_request(
    detailed: Client, tenant: TenantKeys, embedder: OnnxEmbeddingAdapter
) -> None:
    client = detailed
    for topic in TOPICS:
        await _remember(client, tenant.alice, " ".join(topic.format(i=i) for i in range(10)))
    await _remember(client, tenant.alice, LONG)
    response = await client.post("/v1/context", json={
        "query": "kitchen cabinets, cello, budget and sailing?", "token_budget": 200,
        "include_profile": False}, headers=tenant.alice)
    assert response.status_code == 200, response.text
    body = response.json()
    counted = await embedder.count_tokens([body["context"]])
    assert counted is not None and counted[0] <= 200
    levels = {level["id"]: level["tier"] for level in body["levels"]}
    assert levels and set(levels.values()) <= {"L0", "L1", "L2"}
    brief = [memory_id for memory_id, tier in levels.items() if tier != "L2"]
    assert brief, "four long memories do not all fit 200 tokens in full"

    before = (await client.get(f"/v1/memories/{brief[0]}", headers=tenant.alice)).json()
    expanded = await client.post("/v1/context/expand", json={
        "memory_ids": [brief[0], "00000000-0000-0000-0000-000000000000"], "tier": "L2"},
        headers=tenant.alice)
    assert expanded.status_code == 200, expanded.text
    memories = expanded.json()["memories"]
    assert [m["id"] for m in memories] == [brief[0]]  # one not the user's is left out
    assert memories[0]["tier"] == "L2" and memories[0]["content"] == before["content"]
    after = (await client.get(f"/v1/memories/{brief[0]}", headers=tenant.alice)).json()
    assert after["access_count"] == before["access_count"] + 1  # expanding is a use

    other = await client.post("/v1/context/expand", json={"memory_ids": [brief[0]]},
                              headers=tenant.bob)
    assert other.status_code == 200 and other.json()["memories"] == []
    too_small = await client.post("/v1/context", json={"query": "kitchen", "token_budget": 0},
                                  headers=tenant.alice)
    assert_problem(too_small, 422)


def _gate_metric(text: str, name: str) -> float:
    line = next((x for x in text.splitlines() if x.startswith(name)), None)
    return 0.0 if line is None else float(line.rsplit(" ", 1)[1])


async def test_the_gate_records_its_trigger_on_the_memory_and_counts_it_in_metrics(
    client: Client, tenant: TenantKeys
) -> None:
    fired = 'memlane_gate_segments_total{outcome="fired"}'
    decision = 'memlane_gate_triggers_total{trigger="decision"}'
    before = (await client.get("/metrics")).text
    said = [{"role": "user", "content": "The plan is to repaint the hallway in May."},
            {"role": "assistant", "content": "Noted."}]
    response = await client.post("/v1/conversations/flat/messages", json={"messages": said},
                                 headers=tenant.alice)
    assert response.status_code == 201, response.text
    (memory,) = response.json()["memories"]
    assert memory["metadata"]["gate"]["fired"] is True
    assert "decision" in memory["metadata"]["gate"]["triggers"]
    assert memory["provenance"] == "extracted" and memory["confidence"] == 0.8
    after = (await client.get("/metrics")).text
    assert _gate_metric(after, fired) == _gate_metric(before, fired) + 1
    assert _gate_metric(after, decision) == _gate_metric(before, decision) + 1


async def test_a_reply_sent_on_its_own_is_stored_and_served_as_replied(
    client: Client, tenant: TenantKeys
) -> None:
    """The database takes the provenance (migration 0240), and the memory reads back with it."""
    reply = [{"role": "assistant", "content": "Your hallway paint arrives on Tuesday."}]
    response = await client.post("/v1/conversations/flat/messages", json={"messages": reply},
                                 headers=tenant.alice)
    assert response.status_code == 201, response.text
    (memory,) = response.json()["memories"]
    assert memory["provenance"] == "replied" and memory["confidence"] == 0.5
    again = await client.get(f"/v1/memories/{memory['id']}", headers=tenant.alice)
    assert again.status_code == 200 and again.json()["provenance"] == "replied"


async def test_a_context_reads_four_weeks_ago_against_the_asking_time(
    client: Client, tenant: TenantKeys
) -> None:
    """Two visits to the same shop, weeks apart: "four weeks ago" picks the one then. (Told
    in the order they happened: a statement told later replaces one about the same thing.)"""
    visits = [
        ("2031-01-07T10:00:00+00:00", "At the camera shop Lena showed me a camera bag."),
        ("2031-03-04T10:00:00+00:00", "At the camera shop Lena showed me a tripod."),
    ]
    for at, text in visits:
        response = await client.post(
            f"/v1/conversations/shop-{at[:10]}/messages",
            json={"messages": [{"role": "user", "content": text, "created_at": at}]},
            headers=tenant.alice,
        )
        assert response.status_code == 201, response.text
    asked = {"query": "What did Lena show me at the camera shop four weeks ago?", "limit": 1,
             "asked_at": "2031-04-01T09:00:00+00:00"}
    response = await client.post("/v1/context", json=asked, headers=tenant.alice)
    assert response.status_code == 200, response.text
    assert [m["content"] for m in response.json()["memories"]] == [f"user: {visits[1][1]}"]
    earlier = {**asked, "asked_at": "2031-02-04T09:00:00+00:00"}
    response = await client.post("/v1/context", json=earlier, headers=tenant.alice)
    assert [m["content"] for m in response.json()["memories"]] == [f"user: {visits[0][1]}"]
    naive = await client.post("/v1/context", json={**asked, "asked_at": "2031-04-01T09:00:00"},
                              headers=tenant.alice)
    assert_problem(naive, 422)
    firsts = []
    for at in ("2031-04-01T09:00:00+00:00", "2031-02-04T09:00:00+00:00"):
        found = await client.get("/v1/memories/search", headers=tenant.alice, params={
            "q": asked["query"], "limit": 1, "asked_at": at,
        })
        assert found.status_code == 200, found.text
        firsts.append(found.json()["results"][0]["memory"]["content"])
    assert firsts == [f"user: {text}" for _, text in reversed(visits)]
    naive = await client.get("/v1/memories/search", headers=tenant.alice, params={
        "q": asked["query"], "asked_at": "2031-04-01T09:00:00",
    })
    assert_problem(naive, 422)


async def test_an_old_chat_imported_late_leaves_what_was_said_since_current(
    client: Client, tenant: TenantKeys
) -> None:
    """A move dated before the home it would replace replaces nothing; dated after, it does."""

    async def said(conversation: str, text: str, at: str) -> dict[str, Any]:
        response = await client.post(
            f"/v1/conversations/{conversation}/messages", headers=tenant.alice,
            json={"messages": [{"role": "user", "content": text, "created_at": at}]},
        )
        assert response.status_code == 201, response.text
        (memory,) = response.json()["memories"]
        return memory

    async def current(memory_id: str) -> bool:
        found = await client.get(f"/v1/memories/{memory_id}", headers=tenant.alice)
        return bool(found.json()["current"])

    home = await said("now", "I live in Lisbon with my two cats.", "2026-03-01T10:00:00+00:00")
    await said("old-export", "I moved to Porto last month.", "2024-01-10T10:00:00+00:00")
    assert await current(home["id"])
    await said("later", "I moved to Porto last month.", "2026-05-10T10:00:00+00:00")
    assert not await current(home["id"])
