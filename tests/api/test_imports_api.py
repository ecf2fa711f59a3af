"""POST /v1/imports through the real app: an export uploaded, imported once, 4xx when bad."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import asyncpg
import httpx
import pytest
from litestar import Litestar

from memlane.adapters.postgres.portability.import_ledger import PostgresImportLedgerAdapter
from memlane.api.app import create_app
from memlane.api.config import ApiConfig
from memlane.api.deps import ApiServices
from memlane.domain.model import Owner
from tests.api.conftest import TenantKeys, assert_problem, count, serve, services_opener

pytestmark = pytest.mark.integration

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "imports"
CHATGPT = (FIXTURES / "chatgpt_conversations.json").read_bytes()
CLAUDE = (FIXTURES / "claude_conversations.json").read_bytes()


def export_zip(conversations: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("user.json", b"{}")
        archive.writestr("conversations.json", conversations)
    return buffer.getvalue()


async def test_an_uploaded_export_is_imported_once_and_again_adds_nothing(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    first = await client.post(
        "/v1/imports?format=chatgpt", content=CHATGPT, headers=tenant.alice
    )
    assert first.status_code == 200, first.text
    assert first.json() == {
        "chats": 2, "chats_added": 2, "messages_added": 9, "messages_known": 0,
        "messages_shortened": 0, "memories_added": 6,
    }
    again = await client.post(
        "/v1/imports?format=chatgpt", content=export_zip(CHATGPT), headers=tenant.alice
    )
    assert again.status_code == 200, again.text
    assert again.json()["messages_added"] == 0 and again.json()["messages_known"] == 9
    assert await count(client, tenant.alice) == 6

    listed = await client.get("/v1/memories?limit=50", headers=tenant.alice)
    titles = {m["metadata"].get("conversation_title") for m in listed.json()["items"]}
    assert titles == {"Naming the new puppy", "Lisbon landmark and weather"}


async def test_the_export_zip_of_claude_is_read_for_the_named_user(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    response = await client.post(
        "/v1/imports?format=claude&user_id=carol", content=export_zip(CLAUDE),
        headers={**tenant.writer, "Content-Type": "application/zip"},
    )
    assert response.status_code == 200, response.text
    assert response.json()["memories_added"] == 5
    carol = await client.get("/v1/memories/stats?user_id=carol", headers=tenant.writer)
    assert carol.json()["total"] == 5
    assert await count(client, tenant.alice) == 0


@pytest.mark.parametrize(("body", "detail"), [
    (b"", "expected a list of conversations"),
    (b'{"not": "a list"}', "expected a list of conversations"),
    (b'[{"title": "no id", "mapping": {}}]', "conversation 0"),
    (CHATGPT[:-40], "invalid JSON"),
    (b"PK\x03\x04 a truncated zip", "conversations.json"),
    (export_zip(b"[]")[:-30], "conversations.json"),
])
async def test_a_malformed_export_is_a_422_naming_where_and_stores_nothing(
    client: httpx.AsyncClient, tenant: TenantKeys, body: bytes, detail: str
) -> None:
    response = await client.post("/v1/imports?format=chatgpt", content=body,
                                 headers=tenant.alice)
    problem = assert_problem(response, 422)
    assert detail in problem["detail"]
    assert await count(client, tenant.alice) == 0


async def test_an_unknown_format_and_a_read_only_key_are_refused(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    unknown = await client.post("/v1/imports?format=gemini", content=CHATGPT,
                                headers=tenant.alice)
    assert unknown.status_code in (400, 422)
    missing = await client.post("/v1/imports", content=CHATGPT, headers=tenant.alice)
    assert missing.status_code in (400, 422)
    reader = await client.post("/v1/imports?format=chatgpt", content=CHATGPT,
                               headers=tenant.alice_reader)
    assert_problem(reader, 403)
    assert await count(client, tenant.alice) == 0


async def test_an_export_over_the_upload_bound_is_a_413(
    api_services: ApiServices, tenant: TenantKeys
) -> None:
    app: Litestar = create_app(services_opener(api_services), ApiConfig(max_import_bytes=1024))
    async with serve(app) as client:
        response = await client.post("/v1/imports?format=chatgpt", content=CHATGPT,
                                     headers=tenant.alice)
        assert_problem(response, 413)
        assert await count(client, tenant.alice) == 0


async def test_the_upload_bound_is_the_routes_own_not_the_other_routes_body_limit(
    api_services: ApiServices, tenant: TenantKeys
) -> None:
    config = ApiConfig(max_request_bytes=1024, max_import_bytes=len(CHATGPT))
    async with serve(create_app(services_opener(api_services), config)) as client:
        response = await client.post("/v1/imports?format=chatgpt", content=CHATGPT,
                                     headers=tenant.alice)
        assert response.status_code == 200, response.text
        too_big = await client.post("/v1/memories", json={"content": "x" * 2000},
                                    headers=tenant.alice)
        assert_problem(too_big, 413)


async def test_a_second_import_for_the_same_user_while_one_runs_is_a_409(
    client: httpx.AsyncClient, tenant: TenantKeys, pg_pool: asyncpg.Pool
) -> None:
    running = PostgresImportLedgerAdapter(pg_pool)  # another process's import, as it were
    async with running.hold(Owner(tenant.tenant, "alice")) as held:
        assert held
        response = await client.post("/v1/imports?format=chatgpt", content=CHATGPT,
                                     headers=tenant.alice)
        problem = assert_problem(response, 409)
        assert "already running" in problem["detail"]
    assert await count(client, tenant.alice) == 0
    after = await client.post("/v1/imports?format=chatgpt", content=CHATGPT,
                              headers=tenant.alice)
    assert after.status_code == 200, after.text
