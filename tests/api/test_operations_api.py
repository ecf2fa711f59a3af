"""Health, readiness, metrics, OpenAPI, and how the app behaves when things break."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from litestar import Litestar

from memlane.api.app import create_app
from memlane.api.config import ApiConfig
from memlane.api.deps import ApiServices
from tests.api.conftest import TenantKeys, assert_problem, serve, services_opener

pytestmark = pytest.mark.integration
Client = httpx.AsyncClient


async def test_liveness_answers_without_a_token(client: Client) -> None:
    response = await client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


async def test_readiness_is_200_when_database_and_embedder_answer(client: Client) -> None:
    response = await client.get("/readyz")
    assert response.status_code == 200, response.text
    assert response.json()["checks"] == {"database": True, "embedder": True}


async def test_readiness_is_503_naming_what_is_down(api_services: ApiServices) -> None:
    async def embedder_down() -> dict[str, bool]:
        return {"database": True, "embedder": False}

    api_services.readiness = embedder_down
    async with serve(create_app(services_opener(api_services))) as client:
        response = await client.get("/readyz")
    assert response.status_code == 503 and "retry-after" in response.headers
    assert response.json()["checks"] == {"database": True, "embedder": False}


async def test_readiness_that_hangs_is_503_within_the_timeout(api_services: ApiServices) -> None:
    async def hangs() -> dict[str, bool]:
        await asyncio.sleep(60)
        return {"database": True, "embedder": True}

    api_services.readiness = hangs
    app = create_app(services_opener(api_services), ApiConfig(readiness_timeout_ms=50))
    async with serve(app) as client:
        response = await asyncio.wait_for(client.get("/readyz"), timeout=5)
    assert response.status_code == 503


async def test_metrics_count_requests_by_route_template_and_stored_memories(
    client: Client, tenant: TenantKeys
) -> None:
    created = await client.post(
        "/v1/memories", json={"content": "I like sailing."}, headers=tenant.alice
    )
    await client.get(f"/v1/memories/{created.json()['memory']['id']}", headers=tenant.alice)
    text = (await client.get("/metrics")).text
    assert 'route="/v1/memories/{memory_id}"' in text
    assert created.json()["memory"]["id"] not in text  # ids never become label values
    assert 'memlane_memories_stored_total{outcome="new"} 1.0' in text
    assert "memlane_http_request_duration_seconds_bucket" in text
    assert "memlane_worker_decay_runs" in text and "memlane_embedding_duration_seconds" in text


async def test_metrics_count_the_texts_cut_to_the_models_window(
    client: Client, tenant: TenantKeys
) -> None:
    def cut(text: str) -> float:
        name = "memlane_embedding_texts_cut_total"
        return float(next(x for x in text.splitlines() if x.startswith(name)).split()[-1])

    before = cut((await client.get("/metrics")).text)
    long_text = "I spent the long summer sailing along the coast near Lisbon. " * 60
    stored = await client.post("/v1/memories", json={"content": long_text}, headers=tenant.alice)
    assert stored.status_code == 201, stored.text
    assert cut((await client.get("/metrics")).text) == before + 1


async def test_two_apps_keep_separate_metrics(api_services: ApiServices) -> None:
    first = create_app(services_opener(api_services))
    second = create_app(services_opener(api_services))
    async with serve(first) as one, serve(second) as two:
        await one.get("/healthz")
        await one.get("/healthz")
        await two.get("/healthz")
        text_one, text_two = (await one.get("/metrics")).text, (await two.get("/metrics")).text
    series = (
        'memlane_http_request_duration_seconds_count{method="GET",route="/healthz",status="200"}'
    )
    assert f"{series} 2.0" in text_one
    assert f"{series} 1.0" in text_two


async def test_the_openapi_document_lists_every_route(client: Client) -> None:
    schema = (await client.get("/schema/openapi.json")).json()
    operations = {
        (method.upper(), path)
        for path, item in schema["paths"].items()
        for method in item
        if method in {"get", "post", "patch", "delete", "put"}
    }
    expected = {
        ("POST", "/v1/memories"),
        ("GET", "/v1/memories"),
        ("DELETE", "/v1/memories"),
        ("POST", "/v1/memories/batch"),
        ("POST", "/v1/memories/learn"),
        ("GET", "/v1/memories/search"),
        ("GET", "/v1/memories/stats"),
        ("GET", "/v1/memories/export"),
        ("POST", "/v1/memories/decay"),
        ("POST", "/v1/memories/cleanup"),
        ("GET", "/v1/memories/{memory_id}"),
        ("PATCH", "/v1/memories/{memory_id}"),
        ("DELETE", "/v1/memories/{memory_id}"),
        ("POST", "/v1/context"),
        ("GET", "/healthz"),
        ("GET", "/readyz"),
        ("GET", "/metrics"),
    }
    assert expected <= operations, expected - operations
    ids = [op["operationId"] for item in schema["paths"].values() for op in item.values()
           if isinstance(op, dict) and "operationId" in op]
    assert len(ids) == len(set(ids)) >= len(expected)
    store = schema["paths"]["/v1/memories"]["post"]
    assert "requestBody" in store and {"201", "401", "403", "404"} <= store["responses"].keys()


class _Exploding:
    """A service whose every call fails in a way nobody planned for."""

    def __getattr__(self, name: str) -> object:
        async def explode(*args: object, **kwargs: object) -> object:
            raise RuntimeError("secret memory content must not leak")

        return explode


async def test_an_unexpected_error_is_a_500_problem_that_leaks_nothing(
    api_services: ApiServices, tenant: TenantKeys
) -> None:
    api_services.service = _Exploding()  # type: ignore[assignment]
    async with serve(create_app(services_opener(api_services))) as client:
        response = await client.get("/v1/memories/stats", headers=tenant.alice)
    body = assert_problem(response, 500)
    assert "secret" not in response.text and body["detail"] == "internal error"


async def test_a_lost_database_connection_is_a_503_with_retry_after(
    api_services: ApiServices, tenant: TenantKeys
) -> None:
    class _Refused:
        def __getattr__(self, name: str) -> object:
            async def refuse(*args: object, **kwargs: object) -> object:
                raise ConnectionRefusedError(111, "Connection refused")

            return refuse

    api_services.service = _Refused()  # type: ignore[assignment]
    async with serve(create_app(services_opener(api_services))) as client:
        response = await client.get("/v1/memories", headers=tenant.alice)
    assert_problem(response, 503)
    assert response.headers["retry-after"] == "5"


def test_an_app_can_be_built_without_starting_anything(api_services: ApiServices) -> None:
    app = create_app(services_opener(api_services))
    assert isinstance(app, Litestar)


async def test_metrics_sends_a_single_charset(client: httpx.AsyncClient) -> None:
    response = await client.get("/metrics")
    assert response.status_code == 200
    content_type = response.headers["content-type"]
    assert content_type.lower().count("charset") == 1, content_type
    assert content_type.startswith("text/plain; version=0.0.4")
