"""The profile, topics and the profile in prompt context, through the real app."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx
import pytest

from tests.api.conftest import TenantKeys, assert_problem

pytestmark = pytest.mark.integration


async def remember(
    client: httpx.AsyncClient, headers: dict[str, str], content: str, **extra: Any
) -> str:
    response = await client.post("/v1/memories", json={"content": content, **extra},
                                 headers=headers)
    assert response.status_code in (200, 201), response.text
    memory_id: str = response.json()["memory"]["id"]
    return memory_id


async def test_the_profile_puts_safety_first_then_groups_current_facts_by_type_best_first(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    await remember(client, tenant.alice, "I am allergic to peanuts")
    await remember(client, tenant.alice, "My name is Alice")
    await remember(client, tenant.alice, "I will call the dentist tomorrow")
    await client.post("/v1/facts", headers=tenant.alice,
                      json={"relation": "likes", "object": "tea", "user_fact_score": 2})
    await client.post("/v1/facts", headers=tenant.alice,
                      json={"relation": "likes", "object": "jazz", "user_fact_score": 9})
    response = await client.get("/v1/profile", headers=tenant.alice)
    assert response.status_code == 200, response.text
    core = [(f["type"], f["object"]) for f in response.json()["core"]]
    assert core == [  # safety first, then by type; within a type the user's score first
        ("constraint", "peanuts"), ("identity", "Alice"),
        ("commitment", "call the dentist tomorrow"), ("preference", "jazz"), ("preference", "tea"),
    ]
    assert response.json()["secondary"] == []
    assert (await client.get("/v1/profile", headers=tenant.bob)).json() == {
        "core": [], "secondary": [],
    }


async def test_the_context_block_opens_with_the_profile_unless_turned_off(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    await remember(client, tenant.alice, "I am allergic to peanuts")
    await remember(client, tenant.alice, "We planted tulips in the front garden")
    body = {"query": "What should we plant in the garden?"}
    text = (await client.post("/v1/context", json=body, headers=tenant.alice)).json()["context"]
    # memlane read the allergy from what alice said: told, not "never to forget".
    assert text.splitlines()[:2] == [
        "What the user has told you:", "- [constraint] allergic to: peanuts",
    ]
    assert "tulips" in text and "never to forget" not in text
    off = (await client.post("/v1/context", json={**body, "include_profile": False},
                             headers=tenant.alice)).json()["context"]
    assert "told you" not in off and "tulips" in off


async def test_topics_list_tags_and_chat_titles_with_counts_and_activity(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    await remember(client, tenant.alice, "The kitchen needs new tiles", tags=["renovation"])
    await remember(client, tenant.alice, "I will order the tiles on Monday",
                   tags=["renovation", "shopping"])
    await remember(client, tenant.alice, "Flights to Osaka are cheap in May",
                   metadata={"conversation_title": "Trip to Japan"})
    response = await client.get("/v1/topics", headers=tenant.alice)
    assert response.status_code == 200, response.text
    topics = {t["topic"]: t["count"] for t in response.json()["topics"]}
    assert topics == {"renovation": 2, "shopping": 1, "Trip to Japan": 1}
    assert response.json()["topics"][0]["topic"] == "Trip to Japan"  # the newest activity
    assert (await client.get("/v1/topics", headers=tenant.bob)).json() == {
        "topics": [], "truncated": False}


async def test_the_topic_list_is_capped_newest_first_and_says_when_there_are_more(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    for name in ("garden", "Garden  Plans", "taxes"):
        await remember(client, tenant.alice, f"Notes about {name} for this week", tags=[name])
    await remember(client, tenant.alice, "More about the GARDEN", tags=["GARDEN"])
    first = await client.get("/v1/topics", params={"limit": 2}, headers=tenant.alice)
    assert first.status_code == 200, first.text
    # "GARDEN" is "garden" (case-blind), spelled as its newest memory spells it.
    assert first.json() == {"truncated": True, "topics": [
        {"topic": "GARDEN", "count": 2, "last_activity": first.json()["topics"][0][
            "last_activity"]},
        {"topic": "taxes", "count": 1, "last_activity": first.json()["topics"][1][
            "last_activity"]}]}
    every = (await client.get("/v1/topics", params={"limit": 3}, headers=tenant.alice)).json()
    assert every["truncated"] is False and every["topics"][2]["topic"] == "Garden Plans"
    one = await client.get("/v1/topics/garden%20%20plans", headers=tenant.alice)
    assert one.status_code == 200 and one.json()["count"] == 1
    for limit in (0, 501):
        response = await client.get("/v1/topics", params={"limit": limit}, headers=tenant.alice)
        assert response.status_code in (400, 422), response.text


async def test_a_topic_shows_its_facts_next_actions_and_open_questions(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    tags = ["renovation"]
    await remember(client, tenant.alice, "I prefer oak over pine for the floor", tags=tags)
    asked = await remember(client, tenant.alice,
                           "Should we hire Becker for the plumbing? They seem slow.", tags=tags)
    await remember(client, tenant.alice, "Which paint color suits the hallway?", tags=tags)
    await remember(client, tenant.alice, "We chose a warm white paint for the hallway color",
                   tags=tags)
    await remember(client, tenant.alice, "I will order the tiles on Monday", tags=tags)
    await remember(client, tenant.alice, "I will email the landlord", tags=["other"])
    response = await client.get("/v1/topics/Renovation", headers=tenant.alice)
    assert response.status_code == 200, response.text
    view = response.json()
    assert view["topic"] == "renovation" and view["count"] == 5
    assert [(f["relation"], f["object"]) for f in view["facts"]] == [("prefers", "oak")]
    assert [f["object"] for f in view["next_actions"]] == ["order the tiles on Monday"]
    assert [(q["memory_id"], q["question"]) for q in view["open_questions"]] == [
        (asked, "Should we hire Becker for the plumbing?"),
    ]


async def test_a_chat_title_with_spaces_is_a_topic_and_an_unknown_topic_is_404(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    await remember(client, tenant.alice, "Flights to Osaka are cheap in May",
                   metadata={"conversation_title": "Trip to Japan"})
    path = f"/v1/topics/{quote('Trip to Japan')}"
    assert (await client.get(path, headers=tenant.alice)).json()["count"] == 1
    assert_problem(await client.get(path, headers=tenant.bob), 404)
    assert_problem(await client.get("/v1/topics/nothing-here", headers=tenant.alice), 404)
    too_long = "x" * 201
    response = await client.get(f"/v1/topics/{too_long}", headers=tenant.alice)
    assert 400 <= response.status_code < 500
