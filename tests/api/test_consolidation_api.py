"""POST /v1/memories/consolidate through the real app on PostgreSQL, and the history of every
event kind a memory or a fact can have."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

import httpx
import pytest

from memlane.domain.security.audit import EventKind
from tests.api.conftest import TenantKeys, assert_problem, count
from tests.api.test_history_api import history, store

pytestmark = pytest.mark.integration
Client = httpx.AsyncClient
NOTES = ("Sprint planning happens on Monday mornings.", "The retro is on Friday afternoon.")


async def consolidate(client: Client, headers: dict[str, str], **body: Any) -> httpx.Response:
    return await client.post("/v1/memories/consolidate", json=body, headers=headers)


async def test_consolidating_makes_one_memory_that_supersedes_its_sources_in_its_history(
    client: Client, tenant: TenantKeys
) -> None:
    sources = [await store(client, tenant.alice, text) for text in NOTES]
    response = await consolidate(client, tenant.alice, sources=sources[::-1])
    assert response.status_code == 201, response.text
    done = response.json()
    new = done["memory"]["id"]
    assert done["memory"]["content"] == "\n\n".join(NOTES)  # in time order
    assert done["sources"] == sources and done["sources_deleted"] is False
    assert {(e["target"], e["kind"]) for e in done["edges"]} == {
        (s, k) for s in sources for k in ("narrative", "supersedes")}
    graph = (await client.get(f"/v1/memories/{new}/graph", headers=tenant.alice)).json()
    assert {n["id"]: n["superseded_by"] for n in graph["nodes"]} == {
        new: None, sources[0]: new, sources[1]: new}

    own = [e for e in await history(client, tenant.alice, new) if e["subject_id"] == new]
    assert [e["kind"] for e in own] == ["created", "consolidated"]
    assert own[1]["payload"] == {"from": sources[::-1]}
    for source in sources:
        events = [e for e in await history(client, tenant.alice, source)
                  if e["subject_kind"] == "memory" and e["subject_id"] == source]
        assert [e["kind"] for e in events] == ["created", "consolidated", "superseded"]
        assert events[1]["payload"] == {"into": new} and events[1]["related_id"] == new


async def test_delete_sources_deletes_them_with_the_consolidation(
    client: Client, tenant: TenantKeys
) -> None:
    sources = [await store(client, tenant.alice, text) for text in NOTES]
    response = await consolidate(client, tenant.alice, sources=sources, delete_sources=True,
                                 content="Planning Monday, retro Friday.",
                                 memory_type="preference")
    assert response.status_code == 201, response.text
    done = response.json()
    assert done["sources_deleted"] is True and done["edges"] == []
    assert done["memory"]["memory_type"] == "preference"
    for source in sources:
        assert_problem(await client.get(f"/v1/memories/{source}", headers=tenant.alice), 404)
        kinds = [e["kind"] for e in await history(client, tenant.alice, source)]
        # Replaced by the consolidation before they went: what pointed at them points on.
        assert kinds == ["created", "consolidated", "superseded", "deleted"]
    assert await count(client, tenant.alice) == 1


async def test_another_users_source_is_404_and_too_few_sources_422_changing_nothing(
    client: Client, tenant: TenantKeys
) -> None:
    mine = await store(client, tenant.alice, NOTES[0])
    theirs = await store(client, tenant.bob, NOTES[1])
    for sources in ([mine, theirs], [mine, str(uuid4())]):
        problem = assert_problem(await consolidate(
            client, tenant.alice, sources=sources, delete_sources=True), 404)
        assert problem["memory_id"] == sources[1]
    for sources in ([mine], [mine, mine], []):
        assert_problem(await consolidate(client, tenant.alice, sources=sources), 422)
    assert await count(client, tenant.alice) == 1 and await count(client, tenant.bob) == 1
    assert [e["kind"] for e in await history(client, tenant.alice, mine)] == ["created"]
    assert [e["kind"] for e in await history(client, tenant.bob, theirs)] == ["created"]


async def test_every_event_kind_of_memories_and_facts_is_in_a_history(
    client: Client, tenant: TenantKeys
) -> None:
    seen: dict[str, set[str]] = {"memory": set(), "fact": set()}
    # created, merged (the same words again), updated, pinned, unpinned
    kept = await store(client, tenant.alice, "I prefer green tea over coffee in the morning.")
    assert await store(client, tenant.alice, "I prefer green tea over coffee in the morning.") \
        == kept
    for edit in ({"content": "I prefer green tea in the morning."}, {"pinned": True},
                 {"pinned": False}):
        response = await client.patch(f"/v1/memories/{kept}", json=edit, headers=tenant.alice)
        assert response.status_code == 200, response.text
    # superseded: a move replaces where the user lived (the memory, and its fact)
    berlin = await store(client, tenant.alice, "I live in Berlin.")
    lisbon = await store(client, tenant.alice, "I moved to Lisbon last month.")
    # revived: the user deletes the statement that replaced one (the memory, and its fact)
    siemens = await store(client, tenant.alice, "I work at Siemens.")
    bosch = await store(client, tenant.alice, "I now work at Bosch.")
    assert (await client.delete(f"/v1/memories/{bosch}", headers=tenant.alice)).status_code == 204
    # consolidated, then deleted
    done = await consolidate(client, tenant.alice, sources=[kept, lisbon])
    assert done.status_code == 201, done.text
    assert (await client.delete(f"/v1/memories/{kept}", headers=tenant.alice)).status_code == 204
    for memory_id in (kept, berlin, lisbon, siemens, done.json()["memory"]["id"]):
        events = await history(client, tenant.alice, memory_id)
        seen["memory"] |= {e["kind"] for e in events if e["subject_kind"] == "memory"}
        assert all(e["actor"].startswith("key:") and e["at"] for e in events)

    # facts: created (read from the memories, and stated), updated, score overridden,
    # superseded (Berlin by Lisbon), deleted
    facts = (await client.get("/v1/facts", params={"current": "all"},
                              headers=tenant.alice)).json()["items"]
    stated = await client.post("/v1/facts", json={"relation": "works_at", "object": "Acme"},
                               headers=tenant.alice)
    fact_id = stated.json()["id"]
    fact_edits: list[dict[str, Any]] = [{"object": "Globex"}, {"user_fact_score": 8}]
    for fact_edit in fact_edits:
        response = await client.patch(f"/v1/facts/{fact_id}", json=fact_edit,
                                      headers=tenant.alice)
        assert response.status_code == 200, response.text
    assert (await client.delete(f"/v1/facts/{fact_id}", headers=tenant.alice)).status_code == 204
    for fact in [*facts, {"id": fact_id}]:
        response = await client.get(f"/v1/facts/{fact['id']}/history", headers=tenant.alice)
        seen["fact"] |= {e["kind"] for e in response.json()["events"]}

    assert seen["memory"] == {k.value for k in EventKind} - {
        "score_overridden", "erased", "erasure"}
    assert seen["fact"] == {
        "created", "updated", "superseded", "score_overridden", "revived", "deleted"}
