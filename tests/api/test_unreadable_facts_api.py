"""A damaged fact or audit event harms no one else: one flipped bit leaves it out of every read
of its owner, and a damaged fact asked for by id answers `fact-unreadable`."""

from __future__ import annotations

from uuid import UUID

import asyncpg
import httpx
import pytest

from tests.api.conftest import TenantKeys, assert_problem

pytestmark = pytest.mark.integration

# The lowest bit of one byte inside the sealed text (past the 33-byte header and nonce).
FLIP_OBJECT = (
    "UPDATE facts SET object = set_byte(object, 40, get_byte(object, 40) # 1) WHERE id = $1"
)
# The audit log refuses every UPDATE but a tombstone: the damage is done with its guard off,
# in one transaction, as a disk or a restore gone wrong would.
FLIP_PAYLOAD = (
    "UPDATE audit_events SET payload = set_byte(payload, 40, get_byte(payload, 40) # 1) "
    "WHERE id = $1"
)
GUARD = "audit_events_append_only"


async def _state(client: httpx.AsyncClient, headers: dict[str, str], obj: str) -> str:
    response = await client.post(
        "/v1/facts", headers=headers, json={"relation": "allergic_to", "object": obj}
    )
    assert response.status_code == 201, response.text
    fact_id: str = response.json()["id"]
    return fact_id


async def test_a_damaged_fact_is_left_out_of_lists_and_refused_by_id(
    client: httpx.AsyncClient, tenant: TenantKeys, pg_pool: asyncpg.Pool
) -> None:
    good = await _state(client, tenant.alice, "shellfish")
    bad = (await client.post("/v1/facts", headers=tenant.alice, json={
        "relation": "likes", "object": "green tea"})).json()["id"]
    await pg_pool.execute(FLIP_OBJECT, UUID(bad))

    listed = await client.get("/v1/facts", headers=tenant.alice)
    assert listed.status_code == 200, listed.text
    assert [f["id"] for f in listed.json()["items"]] == [good]
    for route in ("/v1/profile", "/v1/memories/export", "/v1/topics"):
        response = await client.get(route, headers=tenant.alice)
        assert response.status_code == 200, (route, response.text)
        assert bad not in response.text
    context = await client.post(
        "/v1/context", json={"query": "what do I like to drink?"}, headers=tenant.alice
    )
    assert context.status_code == 200, context.text

    problem = assert_problem(await client.get(f"/v1/facts/{bad}", headers=tenant.alice), 409)
    assert problem["type"].endswith("fact-unreadable") and problem["fact_id"] == bad
    edit = await client.patch(f"/v1/facts/{bad}", json={"object": "black tea"},
                              headers=tenant.alice)
    assert_problem(edit, 409)
    # The owner can still delete it, and another user never sees it at all.
    assert_problem(await client.get(f"/v1/facts/{bad}", headers=tenant.bob), 404)
    assert (await client.delete(f"/v1/facts/{bad}", headers=tenant.alice)).status_code == 204


async def test_a_damaged_audit_event_is_left_out_of_its_history(
    client: httpx.AsyncClient, tenant: TenantKeys, pg_pool: asyncpg.Pool
) -> None:
    response = await client.post(
        "/v1/memories", json={"content": "The boat leaves at nine"}, headers=tenant.alice
    )
    memory_id = response.json()["memory"]["id"]
    patched = await client.patch(
        f"/v1/memories/{memory_id}", json={"tags": ["boat"]}, headers=tenant.alice
    )
    assert patched.status_code == 200, patched.text
    before = (await client.get(f"/v1/memories/{memory_id}/history",
                               headers=tenant.alice)).json()["events"]
    damaged = next(e for e in before if e["kind"] == "updated")["id"]
    async with pg_pool.acquire() as connection, connection.transaction():
        await connection.execute(f"ALTER TABLE audit_events DISABLE TRIGGER {GUARD}")
        await connection.execute(FLIP_PAYLOAD, UUID(damaged))
        await connection.execute(f"ALTER TABLE audit_events ENABLE TRIGGER {GUARD}")

    after = await client.get(f"/v1/memories/{memory_id}/history", headers=tenant.alice)

    assert after.status_code == 200, after.text
    assert [e["id"] for e in after.json()["events"]] == [
        e["id"] for e in before if e["id"] != damaged
    ]
