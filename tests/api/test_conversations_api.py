"""POST /v1/conversations/{id}/messages through the real app: segments, chains, scoping."""

from __future__ import annotations

from itertools import pairwise

import httpx
import pytest

from tests.api.conftest import TenantKeys, assert_problem, count

pytestmark = pytest.mark.integration

CHAT = [
    {"role": "user", "content": "I adopted a greyhound called Pixel last week",
     "created_at": "2030-05-01T10:00:00+00:00"},
    {"role": "assistant", "content": "Congratulations! Greyhounds are gentle dogs."},
    {"role": "tool", "content": '{"vet": "Dr. Okafor, Tuesday 9:00"}', "name": "calendar"},
    {"role": "user", "content": "So I need a bigger car for her"},
    {"role": "assistant", "content": "An estate car would fit a crate."},
]


async def test_each_exchange_becomes_one_memory_and_segments_are_chained(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    response = await client.post(
        "/v1/conversations/chat-1/messages", json={"messages": CHAT}, headers=tenant.alice
    )
    assert response.status_code == 201, response.text
    body = response.json()
    memories = body["memories"]
    assert [m["content"] for m in memories] == [
        "user: I adopted a greyhound called Pixel last week\n"
        "assistant: Congratulations! Greyhounds are gentle dogs.",
        'calendar: {"vet": "Dr. Okafor, Tuesday 9:00"}',
        "user: So I need a bigger car for her\nassistant: An estate car would fit a crate.",
    ]
    assert memories[1]["memory_type"] == "tool_result"
    assert [m["metadata"]["segment"] for m in memories] == [0, 1, 2]
    assert {m["conversation_id"] for m in memories} == {"chat-1"}
    assert memories[0]["created_at"].startswith("2030-05-01T10:00:00")
    ids = [m["id"] for m in memories]
    edges = {(e["source"], e["target"], e["kind"]) for e in body["edges"]}
    for before, after in pairwise(ids):
        assert {(before, after, "chain"), (after, before, "chain")} <= edges
    assert (ids[1], ids[2], "causal") in edges  # "So I need..." follows from before
    assert all(0.0 <= e["weight"] <= 1.0 for e in body["edges"])


async def test_a_second_call_continues_the_chain_and_never_merges_a_repeat(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    turn = [{"role": "user", "content": "Good morning!"},
            {"role": "assistant", "content": "Good morning to you."}]
    first = await client.post(
        "/v1/conversations/daily/messages", json={"messages": turn}, headers=tenant.alice
    )
    second = await client.post(
        "/v1/conversations/daily/messages", json={"messages": turn}, headers=tenant.alice
    )
    assert first.status_code == second.status_code == 201
    (one,), (two,) = first.json()["memories"], second.json()["memories"]
    assert one["id"] != two["id"] and two["metadata"]["segment"] == 1
    assert (one["id"], two["id"], "chain") in {
        (e["source"], e["target"], e["kind"]) for e in second.json()["edges"]
    }
    assert await count(client, tenant.alice) == 2


@pytest.mark.parametrize("body", [
    {"messages": []},
    {"messages": [{"role": "robot", "content": "beep"}]},
    {"messages": [{"role": "user", "content": "   "}]},
    {"messages": [{"role": "user", "content": "hi", "created_at": "2030-05-01T10:00:00"}]},
    {"messages": [{"role": "user", "content": "hi", "mood": "happy"}]},
])
async def test_bad_messages_are_a_4xx_and_store_nothing(
    client: httpx.AsyncClient, tenant: TenantKeys, body: dict[str, object]
) -> None:
    response = await client.post(
        "/v1/conversations/c/messages", json=body, headers=tenant.alice
    )
    assert 400 <= response.status_code < 500, response.text
    assert_problem(response, response.status_code)
    assert await count(client, tenant.alice) == 0


async def test_a_pinned_key_cannot_write_into_another_users_conversation(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    response = await client.post(
        "/v1/conversations/c/messages",
        json={"messages": CHAT[:2], "user_id": "bob"}, headers=tenant.alice,
    )
    assert_problem(response, 404)
    assert await count(client, tenant.bob) == 0

