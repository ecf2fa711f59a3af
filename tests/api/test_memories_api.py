"""Storing, reading, editing and deleting memories through the real app on real PostgreSQL."""

from __future__ import annotations

from uuid import uuid4

import httpx
import pytest

from tests.api.conftest import TenantKeys, assert_problem, count

pytestmark = pytest.mark.integration
Client = httpx.AsyncClient


async def test_storing_a_new_memory_answers_201_with_the_memory(
    client: Client, tenant: TenantKeys
) -> None:
    response = await client.post(
        "/v1/memories",
        json={"content": "My name is Alice and I live in Berlin.", "tags": ["profile"]},
        headers=tenant.alice,
    )
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["merged"] is False
    memory = body["memory"]
    assert memory["content"] == "My name is Alice and I live in Berlin."
    assert memory["user_id"] == "alice" and memory["memory_type"] == "fact"
    assert memory["tags"] == ["profile"] and 0 < memory["importance"] <= 1
    assert await count(client, tenant.alice) == 1


async def test_storing_a_near_duplicate_merges_and_answers_200(
    client: Client, tenant: TenantKeys
) -> None:
    text = "I prefer green tea over coffee in the morning."
    first = await client.post("/v1/memories", json={"content": text}, headers=tenant.alice)
    second = await client.post("/v1/memories", json={"content": text}, headers=tenant.alice)
    assert (first.status_code, second.status_code) == (201, 200)
    assert second.json()["merged"] is True
    assert second.json()["memory"]["id"] == first.json()["memory"]["id"]
    assert await count(client, tenant.alice) == 1


async def test_a_memory_can_be_read_edited_and_deleted(client: Client, tenant: TenantKeys) -> None:
    created = await client.post(
        "/v1/memories",
        json={"content": "The project deadline is in March.", "memory_type": "context"},
        headers=tenant.alice,
    )
    memory_id = created.json()["memory"]["id"]
    got = await client.get(f"/v1/memories/{memory_id}", headers=tenant.alice)
    assert got.status_code == 200 and got.json()["content"] == "The project deadline is in March."

    edited = await client.patch(
        f"/v1/memories/{memory_id}",
        json={"content": "The project deadline moved to April.", "pinned": True, "tags": ["work"]},
        headers=tenant.alice,
    )
    assert edited.status_code == 200, edited.text
    assert edited.json()["content"] == "The project deadline moved to April."
    assert edited.json()["pinned"] is True and edited.json()["tags"] == ["work"]
    assert edited.json()["memory_type"] == "context"

    deleted = await client.delete(f"/v1/memories/{memory_id}", headers=tenant.alice)
    assert deleted.status_code == 204
    assert_problem(await client.get(f"/v1/memories/{memory_id}", headers=tenant.alice), 404)
    assert_problem(await client.delete(f"/v1/memories/{memory_id}", headers=tenant.alice), 404)


async def test_an_unknown_memory_id_is_not_found(client: Client, tenant: TenantKeys) -> None:
    assert_problem(await client.get(f"/v1/memories/{uuid4()}", headers=tenant.alice), 404)
    patch = await client.patch(
        f"/v1/memories/{uuid4()}", json={"pinned": True}, headers=tenant.alice
    )
    assert_problem(patch, 404)


async def test_a_batch_is_stored_in_order_with_one_result_per_item(
    client: Client, tenant: TenantKeys
) -> None:
    items = [
        {"content": "I work as a nurse at the city hospital."},
        {"content": "My favourite band is Radiohead.", "tags": ["music"]},
        {"content": "The weather tool said it will rain tomorrow.", "memory_type": "tool_result"},
    ]
    response = await client.post(
        "/v1/memories/batch", json={"memories": items}, headers=tenant.alice
    )
    assert response.status_code == 201, response.text
    results = response.json()["results"]
    assert [r["memory"]["content"] for r in results] == [i["content"] for i in items]
    assert [r["memory"]["memory_type"] for r in results][2] == "tool_result"
    assert await count(client, tenant.alice) == 3


async def test_learning_stores_a_classified_question_answer_pair(
    client: Client, tenant: TenantKeys
) -> None:
    response = await client.post(
        "/v1/memories/learn",
        json={
            "question": "Actually, I meant that my sister lives in Hamburg, not Munich.",
            "answer": "Thanks for the correction, I will remember Hamburg.",
            "conversation_id": "conv-1",
        },
        headers=tenant.alice,
    )
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["skipped"] is False and body["memory"]["memory_type"] == "correction"
    assert body["memory"]["content"].startswith("Q: Actually")
    assert body["memory"]["conversation_id"] == "conv-1"


async def test_learning_skips_a_too_short_exchange(client: Client, tenant: TenantKeys) -> None:
    response = await client.post(
        "/v1/memories/learn", json={"question": "hi", "answer": "hello"}, headers=tenant.alice
    )
    assert response.status_code == 200, response.text
    assert response.json() == {"skipped": True, "merged": False, "memory": None}
    assert await count(client, tenant.alice) == 0


async def test_listing_filters_by_type_tag_conversation_and_importance(
    client: Client, tenant: TenantKeys
) -> None:
    seed = [
        {"content": "I love hiking in the Alps.", "tags": ["outdoor"], "importance": 0.8},
        {"content": "Booked a table for Friday.", "memory_type": "context",
         "conversation_id": "c-7", "importance": 0.3},
        {"content": "The search tool returned three hotels.", "memory_type": "tool_result",
         "tags": ["outdoor"], "importance": 0.2},
    ]
    for item in seed:
        assert (await client.post("/v1/memories", json=item, headers=tenant.alice)).is_success

    async def contents(params: dict[str, str]) -> list[str]:
        response = await client.get("/v1/memories", params=params, headers=tenant.alice)
        assert response.status_code == 200, response.text
        return sorted(m["content"] for m in response.json()["items"])

    assert len(await contents({})) == 3
    assert await contents({"type": "tool_result"}) == ["The search tool returned three hotels."]
    assert len(await contents({"tag": "outdoor"})) == 2
    assert await contents({"conversation_id": "c-7"}) == ["Booked a table for Friday."]
    assert await contents({"min_importance": "0.5"}) == ["I love hiking in the Alps."]


def decimals(value: float) -> int:
    text = repr(value)
    return 0 if "." not in text or "e" in text else len(text.split(".")[1])


async def test_json_rounds_importances_and_similarities_to_4_decimals_and_keeps_score_whole(
    client: Client, tenant: TenantKeys
) -> None:
    for text in ("I live in Lisbon", "My sister lives in Lisbon too", "Lisbon has trams",
                 "I drink green tea", "The tram to Belém is slow"):
        stored = await client.post("/v1/memories", json={"content": text, "importance": 0.6},
                                   headers=tenant.alice)
        assert stored.status_code in (200, 201), stored.text
        assert '"importance":0.6,' in stored.text  # not 0.5999999999999999
    found = await client.get("/v1/memories/search", params={"q": "Lisbon trams"},
                             headers=tenant.alice)
    results = found.json()["results"]
    assert len(results) >= 3
    for hit in results:
        assert decimals(hit["similarity"]) <= 4 and decimals(hit["relevance"]) <= 4
        assert decimals(hit["memory"]["importance"]) <= 4
    scores = [hit["score"] for hit in results]
    assert scores == sorted(scores, reverse=True) and len(set(scores)) == len(scores)
    assert any(decimals(s) > 4 for s in scores)  # whole: rounding could make two tie
