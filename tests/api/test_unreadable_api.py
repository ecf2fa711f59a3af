"""A bad row harms no one else: one flipped bit in one ciphertext leaves that memory out of
every read of its owner, answers `memory-unreadable` by id, and `memlane verify` finds it and
quarantines it, whole."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import subprocess
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from uuid import UUID

import asyncpg
import httpx
import pytest

from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.graph.adapter import PostgresGraphAdapter
from memlane.adapters.postgres.installation import PostgresInstallationAdapter
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.adapters.postgres.pool import create_pool
from memlane.adapters.postgres.security.api_keys import PostgresApiKeyAdapter
from memlane.api.app import create_app
from memlane.api.config import ApiConfig
from memlane.api.deps import ApiServices
from memlane.api.metrics import ApiMetrics
from memlane.composition.services import memory_service as build_memory_service
from memlane.domain.policy import MemoryPolicy
from memlane.domain.security.auth import Scope
from memlane.ports.embedding import EmbeddingPort
from memlane.service.security.api_keys import KeyService
from tests.api.conftest import assert_problem, bearer, pool_readiness, serve, services_opener
from tests.e2e.test_serve_process import MEMLANE, REPO

pytestmark = pytest.mark.integration

GOOD = ("My dog is called Rex.", "I live in Berlin near the river.")
BAD = "I like green tea with honey in the morning."
# Flips the lowest bit of one byte inside the sealed text (past the 33-byte header + nonce).
FLIP_ONE_BIT = "UPDATE memories SET content = set_byte(content, 40, get_byte(content, 40) # 1) " \
    "WHERE id = $1"


@dataclass
class Installation:
    """The real app on a database of its own, with a key file the CLI can load too."""

    url: str
    pool: asyncpg.Pool
    key_path: Path
    client: httpx.AsyncClient
    alice: dict[str, str]


@pytest.fixture
async def installation(
    fresh_database_url: str, embedder: EmbeddingPort, tmp_path: Path
) -> AsyncIterator[Installation]:
    key = secrets.token_bytes(32)
    key_path = tmp_path / "memlane.key"
    key_path.write_bytes(key)
    os.chmod(key_path, 0o600)
    encryption = XChaChaEncryptionAdapter(key)
    pool = await create_pool(fresh_database_url, min_size=1, max_size=4)
    await PostgresInstallationAdapter(pool).key_fingerprint(encryption.fingerprint)
    metrics = ApiMetrics()
    service = build_memory_service(
        memories=postgres_memory_ports(pool),
        graph=PostgresGraphAdapter(pool),
        embedder=embedder,
        encryption=encryption,
        keywords=SnowballKeywordAdapter(),
        policy=MemoryPolicy(),
        on_unreadable=metrics.unreadable,
    )
    keys = KeyService(PostgresApiKeyAdapter(pool))
    alice = bearer((await keys.create("t", [Scope.READ, Scope.WRITE], user_id="alice")).token)
    services = ApiServices(service=service, keys=keys, readiness=pool_readiness(pool, embedder))
    try:
        async with serve(create_app(services_opener(services), ApiConfig(), metrics)) as client:
            yield Installation(fresh_database_url, pool, key_path, client, alice)
    finally:
        await pool.close()


async def _damaged(inst: Installation) -> UUID:
    """Stores three memories of alice and flips one bit of one ciphertext; its id."""
    ids = []
    for content in (*GOOD, BAD):
        response = await inst.client.post(
            "/v1/memories", json={"content": content}, headers=inst.alice
        )
        assert response.status_code == 201, response.text
        ids.append(UUID(response.json()["memory"]["id"]))
    await inst.pool.execute(FLIP_ONE_BIT, ids[-1])
    return ids[-1]


def memlane_verify(inst: Installation, *args: str) -> subprocess.CompletedProcess[str]:
    environment = {
        **os.environ,
        "MEMLANE_DATABASE__URL": inst.url,
        "MEMLANE_MEMORY__ENCRYPTION_KEY_PATH": str(inst.key_path),
    }
    return subprocess.run(
        [MEMLANE, "verify", *args], env=environment, cwd=REPO, capture_output=True, text=True,
        timeout=120,
    )


async def test_every_read_of_the_owner_succeeds_without_the_damaged_memory(
    installation: Installation,
) -> None:
    inst, headers = installation, installation.alice
    bad = await _damaged(inst)

    listed = await inst.client.get("/v1/memories", headers=headers)
    assert listed.status_code == 200, listed.text
    assert sorted(m["content"] for m in listed.json()["items"]) == sorted(GOOD)

    search = await inst.client.get(
        "/v1/memories/search", params={"q": "green tea honey"}, headers=headers
    )
    assert search.status_code == 200, search.text
    assert str(bad) not in search.text

    context = await inst.client.post(
        "/v1/context", json={"query": "what tea do I like in the morning?"}, headers=headers
    )
    assert context.status_code == 200, context.text
    assert str(bad) not in context.text

    export = await inst.client.get("/v1/memories/export", headers=headers)
    assert export.status_code == 200
    records = [json.loads(line) for line in export.text.splitlines()]
    # Memory records; the graph's edges and entities follow them in their own records.
    assert sorted(r["content"] for r in records if "content" in r) == sorted(GOOD)
    assert str(bad) not in export.text

    by_id = await inst.client.get(f"/v1/memories/{bad}", headers=headers)
    problem = assert_problem(by_id, 409)
    assert problem["type"].endswith("memory-unreadable") and problem["memory_id"] == str(bad)
    edit = await inst.client.patch(f"/v1/memories/{bad}", json={"pinned": True}, headers=headers)
    assert_problem(edit, 409)

    # Its nearest neighbour is the damaged memory: the merge candidate is skipped.
    near = await inst.client.post(
        "/v1/memories", json={"content": BAD.replace("morning", "morning!")}, headers=headers
    )
    assert near.status_code == 201, near.text
    assert near.json()["merged"] is False

    metrics = await inst.client.get("/metrics")
    line = next(
        m for m in metrics.text.splitlines() if m.startswith("memlane_memories_unreadable_total")
    )
    assert float(line.split()[-1]) >= 5  # list, search, context, export, get, patch, merge

    # The owner can still delete it.
    assert (await inst.client.delete(f"/v1/memories/{bad}", headers=headers)).status_code == 204


async def test_memlane_verify_finds_exactly_the_damaged_row_and_quarantines_it_whole(
    installation: Installation,
) -> None:
    inst = installation
    bad = await _damaged(inst)

    found = await asyncio.to_thread(memlane_verify, inst)
    assert found.returncode == 1, found.stderr
    rows = [json.loads(line) for line in found.stdout.splitlines()]
    assert rows == [{
        "id": str(bad), "tenant": "t", "user_id": "alice", "fields": ["content"],
        "quarantined": False,
    }]
    assert "3 memories checked, 1 unreadable, 0 quarantined" in found.stderr

    moved = await asyncio.to_thread(memlane_verify, inst, "--quarantine", "--batch-rows", "2")
    assert moved.returncode == 0, moved.stderr
    assert "3 memories checked, 1 unreadable, 1 quarantined" in moved.stderr

    kept = await inst.pool.fetch(
        "SELECT id, unreadable, tenant, user_id, octet_length(content) AS size "
        "FROM memory_quarantine"
    )
    assert [(r["id"], r["unreadable"], r["tenant"], r["user_id"]) for r in kept] == [
        (bad, ["content"], "t", "alice")
    ]
    assert kept[0]["size"] > len(BAD)  # the ciphertext itself, not a stub
    assert await inst.pool.fetchval("SELECT count(*) FROM memory_heat WHERE id = $1", bad) == 0
    assert_problem(await inst.client.get(f"/v1/memories/{bad}", headers=inst.alice), 404)

    again = await asyncio.to_thread(memlane_verify, inst)
    assert again.returncode == 0 and again.stdout == ""
    assert "2 memories checked, 0 unreadable" in again.stderr
