"""Facts through the real app: read at write, stated, edited, deleted, owner-scoped."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

import httpx
import pytest

from tests.api.conftest import TenantKeys, assert_problem

pytestmark = pytest.mark.integration


async def remember(client: httpx.AsyncClient, headers: dict[str, str], content: str) -> str:
    response = await client.post("/v1/memories", json={"content": content}, headers=headers)
    assert response.status_code in (200, 201), response.text
    memory_id: str = response.json()["memory"]["id"]
    return memory_id


async def facts(
    client: httpx.AsyncClient, headers: dict[str, str], query: str = ""
) -> list[dict[str, Any]]:
    response = await client.get(f"/v1/facts{query}", headers=headers)
    assert response.status_code == 200, response.text
    items: list[dict[str, Any]] = response.json()["items"]
    return items


async def test_a_remembered_statement_yields_its_facts_sourced_to_the_memory(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    memory_id = await remember(client, tenant.alice, "I work as a nurse at Santa Maria hospital")
    found = {(f["relation"], f["object"]): f for f in await facts(client, tenant.alice)}
    assert set(found) == {("works_as", "nurse"), ("works_at", "Santa Maria hospital")}
    job = found[("works_as", "nurse")]
    assert job["source_memory_id"] == memory_id and job["type"] == "identity"
    assert job["subject"] == "user" and job["current"] is True
    assert job["user_fact_score"] is None and job["source_time"] is not None


async def test_a_new_home_supersedes_the_old_and_links_the_memories(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    berlin = await remember(client, tenant.alice, "I live in Berlin")
    lisbon = await remember(client, tenant.alice, "Last month I moved to Lisbon")
    current = [f for f in await facts(client, tenant.alice) if f["relation"] == "lives_in"]
    assert [f["object"] for f in current] == ["Lisbon"]
    ended = await facts(client, tenant.alice, "?current=false")
    assert [(f["object"], f["superseded_by"]) for f in ended] == [("Berlin", current[0]["id"])]
    assert ended[0]["valid_until"] is not None and ended[0]["current"] is False
    graph = (await client.get(f"/v1/memories/{lisbon}/graph?kinds=supersedes",
                              headers=tenant.alice)).json()
    assert {(e["source"], e["target"]) for e in graph["edges"]} == {(lisbon, berlin)}


async def test_learning_reads_facts_from_the_question_not_the_answer(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    response = await client.post("/v1/memories/learn", headers=tenant.alice, json={
        "question": "I am allergic to peanuts. What snacks can I take on the flight?",
        "answer": "I love dried fruit for flights; I live in the cloud, so pretzels are fine.",
    })
    assert response.status_code == 201, response.text
    found = {(f["relation"], f["object"]) for f in await facts(client, tenant.alice)}
    assert found == {("allergic_to", "peanuts")}


async def test_a_conversation_reads_facts_from_the_users_messages_only(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    messages = [
        {"role": "user", "content": "My name is Dana and I have a dog named Rex."},
        {"role": "assistant", "content": "Nice to meet you! I live in the cloud."},
    ]
    response = await client.post(
        "/v1/conversations/intro/messages", json={"messages": messages}, headers=tenant.alice
    )
    assert response.status_code == 201, response.text
    found = {(f["relation"], f["object"]) for f in await facts(client, tenant.alice)}
    assert ("name", "Dana") in found and ("pet", "Rex") in found
    assert not any(relation == "lives_in" for relation, _ in found)


async def test_a_stated_fact_can_be_edited_scored_and_deleted(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    response = await client.post("/v1/facts", headers=tenant.alice, json={
        "relation": "allergic_to", "object": "shellfish", "user_fact_score": 9,
    })
    assert response.status_code == 201, response.text
    stated = response.json()
    assert stated["type"] == "constraint" and stated["time_span"] == "long_term"
    assert stated["confidence"] == 1.0 and stated["source_memory_id"] is None
    fact_id = stated["id"]
    edited = (await client.patch(f"/v1/facts/{fact_id}", headers=tenant.alice,
                                 json={"object": "shrimp", "time_span": "current"})).json()
    assert edited["object"] == "shrimp" and edited["user_fact_score"] == 9
    cleared = (await client.patch(f"/v1/facts/{fact_id}", headers=tenant.alice,
                                  json={"user_fact_score": None})).json()
    assert cleared["user_fact_score"] is None and cleared["object"] == "shrimp"
    read = await client.get(f"/v1/facts/{fact_id}", headers=tenant.alice)
    assert read.json()["object"] == "shrimp"
    assert (await client.delete(f"/v1/facts/{fact_id}", headers=tenant.alice)).status_code == 204
    assert_problem(await client.get(f"/v1/facts/{fact_id}", headers=tenant.alice), 404)


async def test_stating_a_fact_that_holds_returns_it_and_a_new_job_supersedes(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    body = {"relation": "works_at", "object": "Acme"}
    first = (await client.post("/v1/facts", headers=tenant.alice, json=body)).json()
    again = (await client.post("/v1/facts", headers=tenant.alice, json=body)).json()
    assert again["id"] == first["id"]
    moved = (await client.post("/v1/facts", headers=tenant.alice,
                               json={"relation": "works_at", "object": "Globex"})).json()
    assert [f["id"] for f in await facts(client, tenant.alice)] == [moved["id"]]
    # Deleting the new job makes the old one hold again.
    await client.delete(f"/v1/facts/{moved['id']}", headers=tenant.alice)
    assert [f["id"] for f in await facts(client, tenant.alice)] == [first["id"]]


async def test_another_users_fact_is_not_found(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    stated = (await client.post("/v1/facts", headers=tenant.alice,
                                json={"relation": "likes", "object": "tea"})).json()
    path = f"/v1/facts/{stated['id']}"
    assert_problem(await client.get(path, headers=tenant.bob), 404)
    assert_problem(await client.patch(path, headers=tenant.bob, json={"object": "x"}), 404)
    assert_problem(await client.delete(path, headers=tenant.bob), 404)
    assert await facts(client, tenant.bob) == []
    assert (await client.get(path, headers=tenant.alice)).json()["object"] == "tea"


@pytest.mark.parametrize("body", [
    {"relation": "likes"},
    {"relation": "Works At", "object": "Acme"},
    {"relation": "hobby", "object": "chess"},
    {"relation": "likes", "object": "tea", "user_fact_score": 11},
    {"relation": "likes", "object": "tea", "confidence": 1.5},
    {"relation": "likes", "object": "tea", "type": "mood"},
    {"relation": "likes", "object": "   "},
    {"relation": "likes", "object": "tea", "colour": "red"},
])
async def test_a_bad_fact_is_a_4xx_problem_and_stores_nothing(
    client: httpx.AsyncClient, tenant: TenantKeys, body: dict[str, Any]
) -> None:
    response = await client.post("/v1/facts", headers=tenant.alice, json=body)
    assert 400 <= response.status_code < 500
    assert_problem(response, response.status_code)
    assert await facts(client, tenant.alice, "?current=all") == []


async def test_bad_listing_and_edit_parameters_are_4xx_problems(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    for query in ("?type=mood", "?current=maybe", "?limit=0", "?cursor=nonsense"):
        response = await client.get(f"/v1/facts{query}", headers=tenant.alice)
        assert_problem(response, response.status_code)
        assert 400 <= response.status_code < 500
    stated = (await client.post("/v1/facts", headers=tenant.alice,
                                json={"relation": "likes", "object": "tea"})).json()
    for body in ({"user_fact_score": -1}, {"relation": "dislikes"}, {"object": ""}):
        response = await client.patch(f"/v1/facts/{stated['id']}", headers=tenant.alice,
                                      json=body)
        assert_problem(response, 422 if "relation" not in body else response.status_code)
    assert_problem(await client.get(f"/v1/facts/{uuid4()}", headers=tenant.alice), 404)
    assert (await client.get(f"/v1/facts/{stated['id']}", headers=tenant.alice)).json()[
        "object"] == "tea"


async def test_deleting_a_memory_deletes_its_facts_and_erasure_deletes_all(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    memory_id = await remember(client, tenant.alice, "My favourite colour is green")
    await client.post("/v1/facts", headers=tenant.alice,
                      json={"relation": "likes", "object": "tea"})
    assert len(await facts(client, tenant.alice)) == 2
    await client.delete(f"/v1/memories/{memory_id}", headers=tenant.alice)
    assert [f["object"] for f in await facts(client, tenant.alice)] == ["tea"]
    response = await client.delete("/v1/memories?confirm=true", headers=tenant.alice)
    assert response.status_code in (200, 204), response.text
    assert await facts(client, tenant.alice, "?current=all") == []


async def test_facts_are_paginated_by_cursor(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    for thing in ("tea", "jazz", "hiking"):
        await client.post("/v1/facts", headers=tenant.alice,
                          json={"relation": "likes", "object": thing})
    first = (await client.get("/v1/facts?limit=2", headers=tenant.alice)).json()
    rest = (await client.get(f"/v1/facts?limit=2&cursor={first['next_cursor']}",
                             headers=tenant.alice)).json()
    assert [f["object"] for f in first["items"] + rest["items"]] == ["hiking", "jazz", "tea"]
    assert rest["next_cursor"] is None


async def test_a_read_only_key_reads_facts_but_cannot_change_them(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    stated = (await client.post("/v1/facts", headers=tenant.alice,
                                json={"relation": "likes", "object": "tea"})).json()
    assert [f["id"] for f in await facts(client, tenant.alice_reader)] == [stated["id"]]
    path = f"/v1/facts/{stated['id']}"
    assert_problem(await client.post("/v1/facts", headers=tenant.alice_reader,
                                     json={"relation": "likes", "object": "jazz"}), 403)
    assert_problem(await client.patch(path, headers=tenant.alice_reader,
                                      json={"object": "x"}), 403)
    assert_problem(await client.delete(path, headers=tenant.alice_reader), 403)
    assert (await client.get(path, headers=tenant.alice)).json()["object"] == "tea"


async def test_the_openapi_document_names_every_fact_profile_and_topic_operation(
    client: httpx.AsyncClient,
) -> None:
    document = (await client.get("/schema/openapi.json")).json()
    operations = {
        op["operationId"] for path in document["paths"].values() for op in path.values()
        if isinstance(op, dict) and "operationId" in op
    }
    assert {"listFacts", "stateFact", "getFact", "updateFact", "deleteFact", "getProfile",
            "listTopics", "getTopic"} <= operations


async def test_facts_say_fact_type_as_mcp_does_and_type_stays_a_deprecated_alias(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    new = await client.post("/v1/facts", json={"relation": "hobby", "object": "chess",
                                                "fact_type": "trait"}, headers=tenant.alice)
    old = await client.post("/v1/facts", json={"relation": "sport", "object": "judo",
                                                "type": "trait"}, headers=tenant.alice)
    assert (new.status_code, old.status_code) == (201, 201), (new.text, old.text)
    for answer in (new.json(), old.json()):
        assert answer["fact_type"] == answer["type"] == "trait"  # both, for one release
    edited = await client.patch(f"/v1/facts/{new.json()['id']}", json={"fact_type": "event"},
                                headers=tenant.alice)
    assert edited.status_code == 200 and edited.json()["fact_type"] == "event"
    by_name = await facts(client, tenant.alice, "?fact_type=trait")
    by_alias = await facts(client, tenant.alice, "?type=trait")
    assert [f["object"] for f in by_name] == [f["object"] for f in by_alias] == ["judo"]
    both = await client.post("/v1/facts", json={"relation": "sport", "object": "golf",
                                                 "fact_type": "trait", "type": "event"},
                             headers=tenant.alice)
    assert_problem(both, 422)
    assert all(f["object"] != "golf" for f in await facts(client, tenant.alice, "?current=all"))
    doc = (await client.get("/schema/openapi.json")).json()
    fact_out = doc["components"]["schemas"]["FactOut"]["properties"]
    assert "fact_type" in fact_out and fact_out["type"].get("deprecated") is True
    assert "deprecated" not in doc["components"]["schemas"]["FactType"]  # fact_type is not
