"""Issue 23's one truth: a memory and the facts read from it are replaced together, claim by
claim, through the real app on PostgreSQL."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.api.conftest import TenantKeys
from tests.api.test_facts_api import remember

pytestmark = pytest.mark.integration


async def facts(client: httpx.AsyncClient, headers: dict[str, str], current: str) -> list[Any]:
    response = await client.get("/v1/facts", params={"current": current, "limit": 100},
                                headers=headers)
    assert response.status_code == 200, response.text
    return list(response.json()["items"])


async def memory(client: httpx.AsyncClient, headers: dict[str, str], memory_id: str) -> Any:
    response = await client.get(f"/v1/memories/{memory_id}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


async def profile_objects(client: httpx.AsyncClient, headers: dict[str, str]) -> set[str]:
    body = (await client.get("/v1/profile", headers=headers)).json()
    return {f["object"] for f in (*body["core"], *body["secondary"])}


def read_from(found: list[Any], memory_id: str) -> dict[str, Any]:
    return {f["object"]: f for f in found if f["source_memory_id"] == memory_id}


async def test_a_memory_a_statement_replaces_ends_its_fact_in_the_same_unit_of_work(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    monday = await remember(client, tenant.alice, "I will call the plumber on Monday.")
    tuesday = await remember(client, tenant.alice,
                             "Actually, I'll call the plumber on Tuesday instead.")
    old = await memory(client, tenant.alice, monday)
    assert old["current"] is False and old["superseded_by"] == tuesday
    (ended,) = read_from(await facts(client, tenant.alice, "false"), monday).values()
    # A commitment is no one-value relation: only the memory's replacement could end it, and
    # it ended at the very instant its memory was marked (one unit of work).
    assert ended["valid_until"] == old["valid_until"] and ended["superseded_by"] is None
    current = await facts(client, tenant.alice, "true")
    assert [f["source_memory_id"] for f in current] == [tuesday]
    assert not any("Monday" in o for o in await profile_objects(client, tenant.alice))


async def test_a_multi_fact_memory_stays_for_the_claims_that_still_hold(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    kai = await remember(client, tenant.alice, "My name is Kai, I live in Lisbon, I work as a "
                         "nurse and I'm allergic to peanuts.")
    porto = await remember(client, tenant.alice, "I moved to Porto.")
    assert (await memory(client, tenant.alice, kai))["current"] is True
    assert (await memory(client, tenant.alice, porto))["memory_type"] == "correction"
    claims = read_from(await facts(client, tenant.alice, "all"), kai)
    assert claims["Lisbon"]["superseded_by"] == read_from(
        await facts(client, tenant.alice, "true"), porto)["Porto"]["id"]
    assert {o for o, f in claims.items() if f["valid_until"] is None} == {
        "Kai", "nurse", "peanuts"}
    assert {"Kai", "nurse", "peanuts", "Porto"} <= await profile_objects(client, tenant.alice)
    assert "Lisbon" not in await profile_objects(client, tenant.alice)
    context = (await client.post("/v1/context", json={"query": "What is my job?", "limit": 5},
                                 headers=tenant.alice)).json()
    assert kai in [m["id"] for m in context["memories"]]


async def test_a_memory_is_replaced_once_none_of_its_claims_holds(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    both = await remember(client, tenant.alice, "I live in Lisbon and I work as a nurse.")
    await remember(client, tenant.alice, "I moved to Porto.")
    assert (await memory(client, tenant.alice, both))["current"] is True
    teacher = await remember(client, tenant.alice, "I work as a teacher now.")
    replaced = await memory(client, tenant.alice, both)
    assert replaced["current"] is False and replaced["superseded_by"] == teacher
    assert read_from(await facts(client, tenant.alice, "true"), both) == {}
    assert {"Porto", "teacher"} <= await profile_objects(client, tenant.alice)
    assert not {"Lisbon", "nurse"} & await profile_objects(client, tenant.alice)


async def test_a_persons_delete_of_the_replacing_memory_brings_back_the_memory_and_its_fact(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    monday = await remember(client, tenant.alice, "I will call the plumber on Monday.")
    tuesday = await remember(client, tenant.alice,
                             "Actually, I'll call the plumber on Tuesday instead.")
    deleted = await client.delete(f"/v1/memories/{tuesday}", headers=tenant.alice)
    assert deleted.status_code == 204, deleted.text
    assert (await memory(client, tenant.alice, monday))["current"] is True
    current = await facts(client, tenant.alice, "true")
    assert [(f["source_memory_id"], f["valid_until"]) for f in current] == [(monday, None)]


async def test_a_persons_delete_of_the_new_fact_brings_back_the_value_its_memory_ended(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    berlin = await remember(client, tenant.alice, "I live in Berlin.")
    lisbon = await remember(client, tenant.alice, "I moved to Lisbon last month.")
    assert (await memory(client, tenant.alice, berlin))["current"] is False
    new = read_from(await facts(client, tenant.alice, "true"), lisbon)["Lisbon"]
    assert (await client.delete(f"/v1/facts/{new['id']}", headers=tenant.alice)).status_code == 204
    assert "Berlin" in {f["object"] for f in await facts(client, tenant.alice, "true")}
    assert "Berlin" in await profile_objects(client, tenant.alice)


async def test_an_event_keeps_no_memory_current_once_its_state_is_replaced(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    cologne = await remember(client, tenant.alice, "We moved to Cologne in the spring.")
    await remember(client, tenant.alice, "We just moved again, this time to Aachen.")
    assert (await memory(client, tenant.alice, cologne))["current"] is False
    held = read_from(await facts(client, tenant.alice, "true"), cologne)
    assert set(held) == {"moved to Cologne"}  # what happened still happened
    assert "Cologne" not in await profile_objects(client, tenant.alice)


async def test_a_statement_that_names_no_claim_replaces_a_multi_fact_memory_whole(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    teacher = await remember(client, tenant.alice, "I work as a teacher at a Gymnasium.")
    await remember(client, tenant.alice, "I retired this summer after 38 years.")
    assert (await memory(client, tenant.alice, teacher))["current"] is False
    assert read_from(await facts(client, tenant.alice, "true"), teacher) == {}


async def test_a_statement_whose_fact_names_one_claim_keeps_the_others(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    stripe = await remember(client, tenant.alice, "I'm a senior engineer at Stripe.")
    await remember(client, tenant.alice, "Good news, they made me a staff engineer!")
    assert (await memory(client, tenant.alice, stripe))["current"] is True
    assert set(read_from(await facts(client, tenant.alice, "true"), stripe)) == {"Stripe"}
    assert {"Stripe", "staff engineer"} <= await profile_objects(client, tenant.alice)
