"""Facts travel in the export (GET /v1/memories/export) and come back on import, on PostgreSQL."""

from __future__ import annotations

import json
from uuid import UUID

import httpx
import pytest

from memlane.domain.model import Owner
from memlane.domain.portability.graph import MEMORY, check_graph_record, record_type
from memlane.domain.portability.memories import record_to_new_memory
from memlane.service.memory_service import MemoryService
from tests.api.conftest import TenantKeys

pytestmark = pytest.mark.integration


async def test_an_exported_users_facts_come_back_for_another_user_on_import(
    client: httpx.AsyncClient, tenant: TenantKeys, memory_service: MemoryService
) -> None:
    stored = await client.post("/v1/memories", headers=tenant.alice,
                               json={"content": "I work as a nurse at Santa Maria"})
    assert stored.status_code in (200, 201), stored.text
    memory_id = stored.json()["memory"]["id"]
    stated = await client.post("/v1/facts", headers=tenant.alice, json={
        "relation": "allergic_to", "object": "shellfish", "user_fact_score": 9})
    assert stated.status_code == 201, stated.text
    response = await client.get("/v1/memories/export", headers=tenant.alice)
    lines = [json.loads(line) for line in response.text.splitlines()]
    facts = {r["object"]: r for r in lines if r.get("record") == "fact"}
    assert set(facts) == {"nurse", "Santa Maria", "shellfish"}
    assert facts["nurse"]["source_memory"] == memory_id
    assert facts["shellfish"]["source_memory"] is None
    assert facts["shellfish"]["user_fact_score"] == 9 and facts["shellfish"]["valid_until"] is None

    carol = Owner(tenant.tenant, "carol")
    memories = [r for r in lines if record_type(r) == MEMORY]
    rest = [r for r in lines if record_type(r) != MEMORY]
    for record in rest:
        check_graph_record(record)
    results = await memory_service.remember_many(
        carol, [record_to_new_memory(r) for r in memories])
    ids = {UUID(r["id"]): res.memory.id for r, res in zip(memories, results, strict=True)}
    assert await memory_service.import_facts(carol, rest, ids) == 1  # the others are re-read
    held = {f.object: f async for f in memory_service.facts.export(carol)}
    assert set(held) == {"nurse", "Santa Maria", "shellfish"}
    assert held["nurse"].source_memory_id == ids[UUID(memory_id)]
    assert held["shellfish"].user_fact_score == 9
    assert held["shellfish"].valid_from.isoformat() == facts["shellfish"]["valid_from"]
    assert await memory_service.import_facts(carol, rest, ids) == 0
