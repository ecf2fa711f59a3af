"""When something fails around a proxied chat: the upstream, the client, memlane itself."""

from __future__ import annotations

import asyncio
import socket
from dataclasses import replace

import pytest

from memlane.adapters.http.upstream import UpstreamTimeouts
from memlane.adapters.postgres.pool import create_pool
from memlane.adapters.postgres.security.api_keys import PostgresApiKeyAdapter
from memlane.api.config import ApiConfig
from memlane.api.deps import ApiServices
from memlane.domain.security.auth import Scope
from memlane.service.security.api_keys import KeyService
from tests.api.conftest import TenantKeys, assert_problem, bearer, build_service
from tests.api.proxy_fixtures import ProxyStack, proxy_stack, stack
from tests.api.test_outage_api import PostgresProxy
from tests.stubs.openai_upstream import Scripted, chunk

pytestmark = pytest.mark.integration
__all__ = ["stack"]
BODY = {"model": "stub-model", "messages": [{"role": "user", "content": "Tell me about owls."}]}
HANG_GUARD_S = 60  # a broken test fails instead of hanging; nothing is timed


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_without_an_upstream_the_routes_answer_503_saying_what_to_set(
    api_services: ApiServices, tenant: TenantKeys
) -> None:
    async with proxy_stack(api_services, upstream_url=None) as running:
        chat = await running.http.post("/v1/chat/completions", json=BODY, headers=tenant.alice)
        body = assert_problem(chat, 503)
        assert "upstream_url" in body["detail"] and body["error"]["code"] == "proxy_not_configured"
        assert_problem(await running.http.get("/v1/models", headers=tenant.alice), 503)


async def test_an_unreachable_upstream_is_a_502(
    api_services: ApiServices, tenant: TenantKeys
) -> None:
    async with proxy_stack(api_services, upstream_url=f"http://127.0.0.1:{free_port()}") as run:
        body = assert_problem(
            await run.http.post("/v1/chat/completions", json=BODY, headers=tenant.alice), 502
        )
        assert body["error"]["type"] == "upstream_error"


async def test_an_upstream_slow_to_its_first_byte_is_a_504(
    api_services: ApiServices, tenant: TenantKeys
) -> None:
    quick = UpstreamTimeouts(connect_s=5, first_byte_s=0.3, chunk_gap_s=30)
    async with proxy_stack(api_services, timeouts=quick) as run:
        run.upstream.script.append(Scripted(body={}, hold_headers=True))
        response = await run.http.post("/v1/chat/completions", json=BODY, headers=tenant.alice)
        body = assert_problem(response, 504)
        assert body["phase"] == "first byte"
        run.upstream.release.set()


async def test_a_stream_that_stalls_ends_with_an_error_event_and_teaches_nothing(
    api_services: ApiServices, tenant: TenantKeys
) -> None:
    quick = UpstreamTimeouts(connect_s=5, first_byte_s=30, chunk_gap_s=0.3)
    async with proxy_stack(api_services, timeouts=quick) as run:
        run.upstream.script.append(Scripted(
            events=[chunk("Owls "), chunk("are"), chunk(finish="stop"), "[DONE]"], hold_after=2
        ))
        response = await run.http.post(
            "/v1/chat/completions", json={**BODY, "stream": True}, headers=tenant.alice
        )
        assert response.status_code == 200
        assert response.text.startswith('data: {"id"')
        assert '"code": "upstream_timeout"' in response.text
        await asyncio.wait_for(run.upstream.disconnected.wait(), HANG_GUARD_S)
        await run.learned()
        listed = await run.http.get("/v1/memories", headers=tenant.alice)
        assert listed.json()["items"] == []


async def test_an_upstream_refusing_its_key_is_a_502_that_does_not_blame_the_memlane_key(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    stack.upstream.script.append(Scripted(status=401, body={"error": {"message": "bad key"}}))
    body = assert_problem(
        await stack.http.post("/v1/chat/completions", json=BODY, headers=tenant.alice), 502
    )
    assert "upstream key" in body["detail"] and body["upstream_status"] == 401


async def test_upstream_errors_keep_their_status_and_body(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    error = {"error": {"message": "model 'nope' not found", "type": "invalid_request_error"}}
    stack.upstream.script.append(Scripted(status=404, body=error))
    response = await stack.http.post(
        "/v1/chat/completions", json={**BODY, "model": "nope"}, headers=tenant.alice
    )
    assert response.status_code == 404 and response.json() == error
    await stack.learned()
    assert (await stack.http.get("/v1/memories", headers=tenant.alice)).json()["items"] == []


async def test_a_client_leaving_mid_stream_stops_the_upstream_and_stores_nothing(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    stack.upstream.script.append(Scripted(
        events=[chunk("Owls "), chunk("hunt "), chunk("at night."), chunk(finish="stop"),
                "[DONE]"], hold_after=1,
    ))
    async with stack.http.stream(
        "POST", "/v1/chat/completions", json={**BODY, "stream": True}, headers=tenant.alice
    ) as response:
        async for first in response.aiter_bytes():
            assert b"Owls" in first
            break
    await asyncio.wait_for(stack.upstream.disconnected.wait(), HANG_GUARD_S)
    await stack.learned()
    assert (await stack.http.get("/v1/memories", headers=tenant.alice)).json()["items"] == []


async def test_other_openai_routes_are_404_naming_what_is_supported(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    for path in ("/v1/embeddings", "/v1/completions", "/v1/responses", "/v1/responses/r1"):
        body = assert_problem(await stack.http.post(path, json={}, headers=tenant.alice), 404)
        assert "POST /v1/chat/completions" in body["detail"]
        assert body["error"]["type"] == "not_found_error"


async def test_a_bad_memlane_key_is_a_401_openai_clients_can_read(
    stack: ProxyStack,
) -> None:
    response = await stack.http.post(
        "/v1/chat/completions", json=BODY, headers={"Authorization": "Bearer ml_nope"}
    )
    body = assert_problem(response, 401)
    assert body["error"]["type"] == "authentication_error"
    assert stack.upstream.chats() == []


async def test_cors_stays_off_unless_origins_are_configured(
    api_services: ApiServices, tenant: TenantKeys
) -> None:
    preflight = {"Origin": "http://chat.example", "Access-Control-Request-Method": "POST"}
    async with proxy_stack(api_services) as run:
        answered = await run.http.options("/v1/chat/completions", headers=preflight)
        assert "access-control-allow-origin" not in answered.headers
    configured = ApiConfig(cors_origins=("http://chat.example",))
    async with proxy_stack(api_services, configured) as run:
        answered = await run.http.options("/v1/chat/completions", headers=preflight)
        assert answered.headers["access-control-allow-origin"] == "http://chat.example"


async def test_when_the_database_fails_a_cached_key_is_forwarded_without_memory_and_an_unchecked_key_gets_503(  # noqa: E501
    database_url: str, api_services: ApiServices, embedder, tenant: TenantKeys,  # type: ignore[no-untyped-def]
) -> None:
    cut = PostgresProxy(database_url)
    await cut.start()
    pool = await create_pool(cut.dsn(), min_size=1, max_size=2, command_timeout_ms=3000)
    keys = KeyService(PostgresApiKeyAdapter(pool), cache_ttl_s=3600)
    services = replace(api_services, service=build_service(pool, embedder), keys=keys)
    known = bearer((await keys.create(tenant.tenant, [Scope.READ, Scope.WRITE], "zoe")).token)
    unknown = bearer((await keys.create(tenant.tenant, [Scope.READ], "zoe")).token)
    try:
        async with proxy_stack(services) as run:
            warm = await run.http.post("/v1/chat/completions", json=BODY, headers=known)
            assert warm.status_code == 200, warm.text
            await run.learned()
            await cut.cut()
            degraded = await run.http.post("/v1/chat/completions", json=BODY, headers=known)
            assert degraded.status_code == 200
            assert degraded.headers["x-memlane-memory-degraded"] == "database unavailable"
            assert degraded.json()["choices"][0]["message"]["content"]
            assert_problem(
                await run.http.post("/v1/chat/completions", json=BODY, headers=unknown), 503
            )
    finally:
        await cut.cut()
        pool.terminate()
