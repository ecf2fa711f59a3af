"""The OpenAPI document and Swagger UI as a client sees them, and the statuses they promise."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.conftest import TenantKeys

pytestmark = pytest.mark.integration

README = Path(__file__).resolve().parents[2] / "README.md"
PROBLEM_REF = {"$ref": "#/components/schemas/ProblemDetails"}


async def document(client: httpx.AsyncClient) -> dict[str, Any]:
    response = await client.get("/schema/openapi.json")
    assert response.status_code == 200
    body: dict[str, Any] = response.json()
    return body


def operations(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(path, method, op) for path, item in doc["paths"].items()
            for method, op in item.items() if path.startswith("/v1/")]


async def test_the_readme_names_where_the_document_and_the_swagger_ui_are(
    client: httpx.AsyncClient,
) -> None:
    readme = README.read_text()
    assert "`/schema/openapi.json`" in readme and "`/schema`" in readme
    doc = await document(client)
    assert doc["openapi"].startswith("3.") and doc["info"]["title"] == "memlane"
    ui = await client.get("/schema")
    assert ui.status_code == 200 and "SwaggerUIBundle" in ui.text


async def test_the_swagger_ui_loads_only_local_assets(client: httpx.AsyncClient) -> None:
    page = (await client.get("/schema")).text
    urls = re.findall(r"""(?:src|href)=["']([^"']+)["']""", page)
    assert len(urls) >= 4 and all(u.startswith("/") and not u.startswith("//") for u in urls)
    for url in urls:
        asset = await client.get(url)
        assert asset.status_code == 200 and asset.content, url


async def test_every_v1_operation_requires_the_bearer_token_and_probes_do_not(
    client: httpx.AsyncClient,
) -> None:
    doc = await document(client)
    scheme = doc["components"]["securitySchemes"]["BearerToken"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")
    assert all(op.get("security") == [{"BearerToken": []}] for _, _, op in operations(doc))
    assert "security" not in doc["paths"]["/healthz"]["get"]


async def test_every_error_an_operation_documents_is_a_problem_json_body(
    client: httpx.AsyncClient,
) -> None:
    doc = await document(client)
    for path, method, op in operations(doc):
        errors = {code: r for code, r in op["responses"].items() if int(code) >= 400}
        assert {"401", "403", "404", "422", "503"} <= set(errors), (path, method)
        for code, response in errors.items():
            assert response["content"] == {"application/problem+json": {"schema": PROBLEM_REF}}, (
                path, method, code)
    problem = doc["components"]["schemas"]["ProblemDetails"]
    assert {"type", "title", "status", "detail"} <= set(problem["required"])


async def test_storing_documents_201_for_new_and_200_for_merged(
    client: httpx.AsyncClient,
) -> None:
    doc = await document(client)
    for path in ("/v1/memories", "/v1/memories/batch", "/v1/memories/learn"):
        assert {"200", "201"} <= set(doc["paths"][path]["post"]["responses"]), path


def bounded_numbers(node: Any, where: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every schema (parameter or body field) that carries a numeric bound."""
    found = []
    if isinstance(node, dict):
        if "minimum" in node or "maximum" in node:
            found.append((where, node))
        for key, value in node.items():
            found += bounded_numbers(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += bounded_numbers(value, f"{where}/{i}")
    return found


async def test_every_limit_and_score_states_both_ends_of_its_range(
    client: httpx.AsyncClient,
) -> None:
    doc = await document(client)
    bounded = bounded_numbers(doc)
    assert all("minimum" in s and "maximum" in s for _, s in bounded), [
        w for w, s in bounded if not ("minimum" in s and "maximum" in s)]
    params = {(path, p["name"]): p["schema"] for path, _, op in operations(doc)
              for p in op.get("parameters", ())}
    assert (params[("/v1/memories", "limit")]["minimum"],
            params[("/v1/memories", "limit")]["maximum"]) == (1, 200)
    assert params[("/v1/memories/search", "limit")]["maximum"] == 100
    assert params[("/v1/memories", "min_importance")]["minimum"] == 0.0
    assert params[("/v1/memories/{memory_id}/graph", "depth")]["maximum"] == 3
    schemas = doc["components"]["schemas"]
    assert schemas["ContextIn"]["properties"]["limit"]["maximum"] == 50
    assert schemas["MemoryItemIn"]["properties"]["importance"]["minimum"] == 0.0
    assert schemas["BatchIn"]["properties"]["memories"]["maxItems"] == 256


async def test_a_validation_error_is_the_documented_422_problem(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    for response in (
        await client.get("/v1/memories", params={"limit": "201"}, headers=tenant.alice),
        await client.post("/v1/memories", json={"content": ""}, headers=tenant.alice),
    ):
        assert response.status_code == 422
        assert response.headers["content-type"].startswith("application/problem+json")


async def test_a_batch_of_only_new_memories_is_201_and_with_a_merge_200(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    fresh = [{"content": "I keep bees on the roof of my flat"},
             {"content": "My bicycle is a green Brompton"}]
    created = await client.post("/v1/memories/batch", json={"memories": fresh},
                                headers=tenant.alice)
    assert created.status_code == 201, created.text
    again = [{"content": "I keep bees on the roof of my flat"},
             {"content": "I collect old maps of Lisbon"}]
    merged = await client.post("/v1/memories/batch", json={"memories": again},
                               headers=tenant.alice)
    assert merged.status_code == 200, merged.text
    assert [r["merged"] for r in merged.json()["results"]] == [True, False]


async def test_a_search_result_documents_the_score_that_orders_it(
    client: httpx.AsyncClient,
) -> None:
    doc = await document(client)
    hit = doc["components"]["schemas"]["SearchHitOut"]
    assert {"score", "similarity", "relevance", "memory"} <= set(hit["required"])
    described = hit["properties"]["score"]["description"]
    assert "orders the results" in described and "superseded" in described
    memory = doc["components"]["schemas"]["MemoryOut"]["properties"]
    assert {"current", "superseded_by", "valid_until"} <= set(memory)
