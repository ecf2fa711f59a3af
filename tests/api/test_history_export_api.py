"""On PostgreSQL: the REST export carries histories; erase, import and export again give the
same records, the history route shows the re-chained events and every chain verifies."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from memlane.domain.model import Owner
from memlane.service.memory_service import MemoryService
from memlane.service.security.actors import acting_as
from memlane.service.security.histories import AuditService
from tests.api.conftest import TenantKeys

pytestmark = pytest.mark.integration


async def export(client: httpx.AsyncClient, headers: dict[str, str]) -> list[dict[str, Any]]:
    response = await client.get("/v1/memories/export", headers=headers)
    assert response.status_code == 200, response.text
    return [json.loads(line) for line in response.text.splitlines()]


def comparable(lines: list[dict[str, Any]]) -> list[str]:
    # Current importance is computed at export time; everything else is stored.
    return sorted(json.dumps({k: v for k, v in r.items() if k != "importance"}, sort_keys=True)
                  for r in lines)


async def test_export_erase_import_export_round_trips_with_history_and_a_valid_chain(
    client: httpx.AsyncClient, tenant: TenantKeys, memory_service: MemoryService,
    audit_service: AuditService,
) -> None:
    first = await client.post("/v1/memories", headers=tenant.alice,
                              json={"content": "I work as a nurse at Santa Maria"})
    second = await client.post("/v1/memories", headers=tenant.alice,
                               json={"content": "Our team retro is on Fridays", "tags": ["work"]})
    ids = [first.json()["memory"]["id"], second.json()["memory"]["id"]]
    edited = await client.patch(f"/v1/memories/{ids[1]}", headers=tenant.alice,
                                json={"content": "Our team retro moved to Thursdays",
                                      "pinned": True})
    assert edited.status_code == 200, edited.text
    linked = await client.post(f"/v1/memories/{ids[0]}/edges", headers=tenant.alice,
                               json={"target": ids[1], "kind": "narrative"})
    assert linked.status_code == 201, linked.text
    before = await export(client, tenant.alice)
    retro = next(r for r in before if r.get("id") == ids[1])
    assert [e["kind"] for e in retro["history"]] == ["created", "updated", "pinned"]
    assert retro["history"][1]["payload"]["new"] == {
        "content": "Our team retro moved to Thursdays"}
    facts = [r for r in before if r.get("record") == "fact"]
    assert facts and all(r["history"][0]["kind"] == "created" for r in facts)

    alice = Owner(tenant.tenant, "alice")
    await memory_service.delete_all(alice)
    with acting_as("cli"):
        report = await memory_service.import_records(alice, before)
    assert (report.memories.stored, report.memories.skipped) == (2, 0)
    after = await export(client, tenant.alice)
    assert comparable(after) == comparable(before)
    chain = await audit_service.verify(tenant.tenant, "alice")
    assert chain.intact and chain.owners == 1

    history = await client.get(f"/v1/memories/{ids[1]}/history", headers=tenant.alice)
    events = [e for e in history.json()["events"] if e["subject_kind"] == "memory"]
    assert [e["kind"] for e in events] == ["erased"] * 3 + ["created", "updated", "pinned"]
    assert events[-1]["payload"]["imported"]["by"] == "cli"

    again = await memory_service.import_records(alice, after)
    assert (again.memories.stored, again.memories.skipped) == (0, 2)
    assert again.facts.stored == 0 and again.facts.skipped == len(facts)
    assert comparable(await export(client, tenant.alice)) == comparable(before)
