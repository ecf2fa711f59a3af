"""History through the real app: every change of a memory, owner-scoped, past deletion and
erasure (which leaves tombstones and a chain that still verifies)."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

import httpx
import pytest

from memlane.service.security.histories import AuditService
from tests.api.conftest import TenantKeys, assert_problem

pytestmark = pytest.mark.integration
Client = httpx.AsyncClient

TEXT = "The project deadline is in March."


async def store(client: Client, headers: dict[str, str], content: str = TEXT) -> str:
    response = await client.post("/v1/memories", json={"content": content}, headers=headers)
    assert response.status_code in (200, 201), response.text
    memory_id: str = response.json()["memory"]["id"]
    return memory_id


async def history(client: Client, headers: dict[str, str], memory_id: str) -> list[Any]:
    response = await client.get(f"/v1/memories/{memory_id}/history", headers=headers)
    assert response.status_code == 200, response.text
    events: list[Any] = response.json()["events"]
    return events


async def test_every_change_of_a_memory_is_in_its_history_oldest_first_after_deletion_too(
    client: Client, tenant: TenantKeys
) -> None:
    memory_id = await store(client, tenant.alice)
    edited = await client.patch(
        f"/v1/memories/{memory_id}", json={"content": "The deadline moved to April."},
        headers=tenant.alice,
    )
    assert edited.status_code == 200, edited.text
    for pinned in (True, False):
        response = await client.patch(f"/v1/memories/{memory_id}", json={"pinned": pinned},
                                      headers=tenant.alice)
        assert response.status_code == 200, response.text
    assert (await client.delete(f"/v1/memories/{memory_id}", headers=tenant.alice)).status_code \
        == 204
    events = await history(client, tenant.alice_reader, memory_id)
    assert [e["kind"] for e in events] == ["created", "updated", "pinned", "unpinned", "deleted"]
    assert [e["seq"] for e in events] == sorted(e["seq"] for e in events)
    assert events[0]["payload"]["new"]["content"] == TEXT
    assert events[1]["payload"]["old"] == {"content": TEXT}
    assert events[1]["payload"]["new"] == {"content": "The deadline moved to April."}
    actors = {e["actor"] for e in events}
    assert len(actors) == 1 and actors.pop().startswith("key:")


async def test_a_merge_names_the_memory_it_went_into(
    client: Client, tenant: TenantKeys
) -> None:
    text = "I prefer green tea over coffee in the morning."
    first = await store(client, tenant.alice, text)
    assert await store(client, tenant.alice, text) == first
    events = await history(client, tenant.alice, first)
    assert [e["kind"] for e in events] == ["created", "merged"]
    assert events[1]["payload"]["into"] == first


async def test_a_stated_edge_is_in_the_history_of_both_memories(
    client: Client, tenant: TenantKeys
) -> None:
    rain = await store(client, tenant.alice, "It rained all day in Lisbon.")
    cancelled = await store(client, tenant.alice, "The football match was cancelled.")
    linked = await client.post(f"/v1/memories/{rain}/edges",
                               json={"target": cancelled, "kind": "causal"}, headers=tenant.alice)
    assert linked.status_code == 201, linked.text
    for end in (rain, cancelled):
        edge = [e for e in await history(client, tenant.alice, end) if e["subject_kind"] == "edge"]
        assert [(e["kind"], e["subject_id"], e["related_id"]) for e in edge] == [
            ("created", rain, cancelled)]


async def test_another_users_history_is_not_found_and_so_is_an_unknown_fact(
    client: Client, tenant: TenantKeys
) -> None:
    memory_id = await store(client, tenant.alice)
    assert_problem(await client.get(f"/v1/memories/{memory_id}/history", headers=tenant.bob),
                   404)
    assert_problem(await client.get(f"/v1/memories/{uuid4()}/history", headers=tenant.alice),
                   404)
    assert_problem(await client.get(f"/v1/facts/{uuid4()}/history", headers=tenant.alice), 404)


async def test_erasing_a_user_leaves_only_tombstones_and_the_chain_still_verifies(
    client: Client, tenant: TenantKeys, audit_service: AuditService
) -> None:
    memory_id = await store(client, tenant.alice)
    await client.patch(f"/v1/memories/{memory_id}", json={"pinned": True}, headers=tenant.alice)
    bobs = await store(client, tenant.bob)
    erased = await client.delete("/v1/memories?confirm=true", headers=tenant.alice)
    assert erased.status_code == 200 and erased.json() == {"deleted": 1}
    events = await history(client, tenant.alice, memory_id)
    assert [(e["kind"], e["payload"]) for e in events] == [("erased", None)] * 2
    assert all(e["actor"].startswith("key:") and e["at"] for e in events)
    assert [e["kind"] for e in await history(client, tenant.bob, bobs)] == ["created"]
    report = await audit_service.verify(tenant.tenant, None)
    assert report.intact and report.owners == 2 and report.tombstones == 2


async def test_a_facts_history_shows_its_statement_edits_score_and_deletion(
    client: Client, tenant: TenantKeys
) -> None:
    stated = await client.post("/v1/facts", json={"relation": "works_at", "object": "Acme"},
                               headers=tenant.alice)
    assert stated.status_code == 201, stated.text
    fact_id = stated.json()["id"]
    for edit in ({"object": "Globex"}, {"user_fact_score": 8}):
        response = await client.patch(f"/v1/facts/{fact_id}", json=edit, headers=tenant.alice)
        assert response.status_code == 200, response.text
    assert (await client.delete(f"/v1/facts/{fact_id}", headers=tenant.alice)).status_code == 204
    response = await client.get(f"/v1/facts/{fact_id}/history", headers=tenant.alice)
    assert response.status_code == 200, response.text
    events = response.json()["events"]
    assert [e["kind"] for e in events] == ["created", "updated", "score_overridden", "deleted"]
    assert events[1]["payload"] == {"old": {"object": "Acme"}, "new": {"object": "Globex"}}
    assert events[2]["payload"] == {"old": None, "new": 8.0}
    assert_problem(await client.get(f"/v1/facts/{fact_id}/history", headers=tenant.bob), 404)


async def test_cleanup_ends_a_faded_memorys_history_with_a_deletion_by_the_decay_job(
    client: Client, tenant: TenantKeys, audit_service: AuditService
) -> None:
    faded = await client.post(
        "/v1/memories", headers=tenant.alice,
        json={"content": "It drizzled this morning.", "memory_type": "context",
              "importance": 0.05},  # under the context floor: faded from the start
    )
    assert faded.status_code in (200, 201), faded.text
    faded_id = faded.json()["memory"]["id"]
    kept = await store(client, tenant.alice)
    cleanup = await client.post("/v1/memories/cleanup", headers=tenant.alice)
    assert cleanup.status_code == 200 and cleanup.json() == {"affected": 1, "scope": "user"}
    events = await history(client, tenant.alice, faded_id)
    assert [(e["kind"], e["actor"]) for e in events][-1] == ("deleted", "system:decay")
    assert events[0]["actor"].startswith("key:")
    assert [e["kind"] for e in await history(client, tenant.alice, kept)] == ["created"]
    report = await audit_service.verify(tenant.tenant, None)
    assert report.intact
