"""Reading and stating edges through the real app; the graph is owner-scoped like memories."""

from __future__ import annotations

import httpx
import pytest

from tests.api.conftest import TenantKeys, assert_problem

pytestmark = pytest.mark.integration

CHAT = [
    {"role": "user", "content": "My sister Priya is visiting from Toronto next week"},
    {"role": "assistant", "content": "How nice! Will you show her around?"},
    {"role": "user", "content": "Yes, we will hike in the Alps together"},
    {"role": "assistant", "content": "Pack good boots for the hike."},
    {"role": "user", "content": "She loves mountains and photography"},
    {"role": "assistant", "content": "The light is best in the morning."},
]


async def add_chat(client: httpx.AsyncClient, headers: dict[str, str]) -> list[str]:
    response = await client.post(
        "/v1/conversations/visit/messages", json={"messages": CHAT}, headers=headers
    )
    assert response.status_code == 201, response.text
    return [m["id"] for m in response.json()["memories"]]


async def test_the_graph_of_a_segment_shows_its_chain_neighbours_one_hop_and_two(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    first, second, third = await add_chat(client, tenant.alice)
    one = (await client.get(f"/v1/memories/{first}/graph?kinds=chain",
                            headers=tenant.alice)).json()
    assert {n["id"] for n in one["nodes"]} == {first, second}
    assert {(e["source"], e["target"]) for e in one["edges"]} == {
        (first, second), (second, first),
    }
    two = (await client.get(f"/v1/memories/{first}/graph?depth=2&kinds=chain",
                            headers=tenant.alice)).json()
    assert {n["id"] for n in two["nodes"]} == {first, second, third}
    node = next(n for n in two["nodes"] if n["id"] == first)
    assert node["summary"] and node["conversation_id"] == "visit" and "content" not in node


async def test_another_users_memory_has_no_graph_and_takes_no_edge(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    alices = await add_chat(client, tenant.alice)
    bobs = await add_chat(client, tenant.bob)
    assert_problem(await client.get(f"/v1/memories/{alices[0]}/graph", headers=tenant.bob), 404)
    linked = await client.post(
        f"/v1/memories/{bobs[0]}/edges", json={"target": alices[0], "kind": "causal"},
        headers=tenant.bob,
    )
    assert_problem(linked, 404)
    graph = (await client.get(f"/v1/memories/{alices[0]}/graph?depth=3",
                              headers=tenant.alice)).json()
    assert {n["id"] for n in graph["nodes"] if n["kind"] == "memory"} <= set(alices)
    # The same names in both chats are two owners' entities, each shown only to its owner.
    theirs = (await client.get(f"/v1/memories/{bobs[0]}/graph?depth=3",
                               headers=tenant.bob)).json()
    entities = {n["id"] for n in graph["nodes"] if n["kind"] == "entity"}
    assert entities and entities.isdisjoint(n["id"] for n in theirs["nodes"])


async def test_the_graph_shows_the_entities_its_memories_name_unless_kinds_leave_them_out(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    first, *_ = await add_chat(client, tenant.alice)
    graph = (await client.get(f"/v1/memories/{first}/graph", headers=tenant.alice)).json()
    named = {n["label"]: n for n in graph["nodes"] if n["kind"] == "entity"}
    assert named["Priya"]["entity_kind"] == "person" and "Toronto" in named
    assert named["Priya"]["memory_type"] is None and 0 < named["Priya"]["importance"] <= 1
    priya = named["Priya"]["id"]
    (mention,) = [e for e in graph["edges"] if e["target"] == priya]
    assert mention["source"] == first and mention["kind"] == "entity"
    only_entities = (await client.get(f"/v1/memories/{first}/graph?kinds=entity",
                                      headers=tenant.alice)).json()
    assert priya in {n["id"] for n in only_entities["nodes"]}
    chain_only = (await client.get(f"/v1/memories/{first}/graph?kinds=chain",
                                   headers=tenant.alice)).json()
    assert {n["kind"] for n in chain_only["nodes"]} == {"memory"}


async def test_a_stated_edge_can_be_read_and_removed(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    first, _, third = await add_chat(client, tenant.alice)
    made = await client.post(
        f"/v1/memories/{first}/edges", json={"target": third, "kind": "narrative",
                                             "weight": 0.6}, headers=tenant.alice,
    )
    assert made.status_code == 201, made.text
    assert made.json() == {"source": first, "target": third, "kind": "narrative", "weight": 0.6}
    graph = (await client.get(f"/v1/memories/{first}/graph?kinds=narrative",
                              headers=tenant.alice)).json()
    assert [(e["target"], e["kind"]) for e in graph["edges"]] == [(third, "narrative")]
    gone = await client.delete(f"/v1/memories/{first}/edges/{third}?kind=narrative",
                               headers=tenant.alice)
    assert gone.status_code == 204
    again = await client.delete(f"/v1/memories/{first}/edges/{third}?kind=narrative",
                                headers=tenant.alice)
    assert_problem(again, 404)


@pytest.mark.parametrize("body", [{"kind": "supersedes"}, {"kind": "causal", "weight": 1.5}])
async def test_edges_memlane_makes_itself_or_bad_weights_are_refused(
    client: httpx.AsyncClient, tenant: TenantKeys, body: dict[str, object]
) -> None:
    first, second, _ = await add_chat(client, tenant.alice)
    response = await client.post(
        f"/v1/memories/{first}/edges", json={"target": second, **body}, headers=tenant.alice
    )
    assert 400 <= response.status_code < 500
    assert_problem(response, response.status_code)
    graph = (await client.get(f"/v1/memories/{first}/graph", headers=tenant.alice)).json()
    assert {e["kind"] for e in graph["edges"]} <= {"chain", "semantic", "entity"}


async def test_an_unknown_kind_or_depth_is_a_4xx(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    (first, *_) = await add_chat(client, tenant.alice)
    for query in ("kinds=friendship", "depth=4", "depth=0"):
        response = await client.get(f"/v1/memories/{first}/graph?{query}", headers=tenant.alice)
        assert 400 <= response.status_code < 500, query
        assert_problem(response, response.status_code)


async def test_context_leaves_out_the_current_conversation_and_takes_the_new_fields(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    ids = await add_chat(client, tenant.alice)
    query = {"query": "Where will we hike with my sister?"}
    found = (await client.post("/v1/context", json=query, headers=tenant.alice)).json()
    assert {m["id"] for m in found["memories"]} & set(ids)
    assert all(m["role"] in {"entry", "chain", "semantic", "activation", "entity"}
               for m in found["memories"])
    assert {m["conversation_id"] for m in found["memories"]} == {"visit"}
    current = await client.post(
        "/v1/context", json={**query, "conversation_id": "visit", "order": "timeline"},
        headers=tenant.alice,
    )
    assert current.status_code == 200 and current.json()["memories"] == []
    again = await client.post(
        "/v1/context",
        json={**query, "conversation_id": "visit", "include_current": True,
              "order": "timeline", "include_superseded": True, "active_context": ["hello"]},
        headers=tenant.alice,
    )
    created = [m["created_at"] for m in again.json()["memories"]]
    assert created and created == sorted(created)
    bad = await client.post("/v1/context", json={**query, "order": "random"},
                            headers=tenant.alice)
    assert_problem(bad, 422)


async def test_a_move_replaces_the_old_home_and_leaves_the_flight_search_alone(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    ids = {}
    for text in ("I live in Berlin.", "I'm looking for flights from Berlin to Lisbon.",
                 "I moved to Lisbon last month."):
        response = await client.post("/v1/memories", json={"content": text}, headers=tenant.alice)
        assert response.status_code == 201, response.text
        ids[text] = response.json()["memory"]["id"]
    moved = ids["I moved to Lisbon last month."]
    graph = (await client.get(f"/v1/memories/{moved}/graph?kinds=supersedes,contradiction",
                              headers=tenant.alice)).json()
    assert {(e["source"], e["target"]) for e in graph["edges"]} == {
        (moved, ids["I live in Berlin."]),
    }
    search = ids["I'm looking for flights from Berlin to Lisbon."]
    flights = await client.get(f"/v1/memories/{search}", headers=tenant.alice)
    assert flights.status_code == 200 and flights.json().get("superseded_by") is None
