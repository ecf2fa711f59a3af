"""No input answers 5xx: NUL characters, deep or huge metadata, undecodable bodies, wrong
content types, invisible content and oversized queries get a 4xx problem and change nothing."""

from __future__ import annotations

from typing import Any

import httpx
import msgspec
import pytest

from tests.api.conftest import TenantKeys, assert_problem, count

pytestmark = pytest.mark.integration
Client = httpx.AsyncClient
NUL = "\u0000"


def nested(depth: int) -> msgspec.Raw:
    """Metadata nested `depth` objects deep, as raw JSON (Python's encoder would recurse)."""
    return msgspec.Raw(b'{"d":' * depth + b"1" + b"}" * depth)


def post_json(client: Client, path: str, body: Any, headers: dict[str, str]) -> Any:
    return client.post(
        path,
        content=msgspec.json.encode(body),
        headers={**headers, "Content-Type": "application/json"},
    )


@pytest.mark.parametrize(
    "body",
    [
        {"content": "I like tea.", "tags": [f"a{NUL}b"]},
        {"content": "I like tea.", "metadata": {f"k{NUL}": "v"}},
        {"content": "I like tea.", "metadata": {"k": f"v{NUL}"}},
        {"content": "I like tea.", "metadata": {"k": [{"deeper": f"v{NUL}"}]}},
        {"content": "I like tea.", "conversation_id": f"c{NUL}"},
        {"content": "I like tea.", "user_id": f"al{NUL}ice"},
        {"content": "I like tea.", "metadata": nested(100)},
        {"content": "I like tea.", "metadata": {f"k{i}": i for i in range(100_000)}},
        {"content": "I like tea.", "metadata": {"big": "x" * (1024 * 1024)}},
        {"content": "\u200b\u200b\u200b"},
        {"content": "\u200b \ufeff\u2060\u00ad\u200d\n"},
        {"content": "\u3164\u2800"},
    ],
    ids=[
        "nul-tag", "nul-metadata-key", "nul-metadata-value", "nul-nested-value",
        "nul-conversation", "nul-user", "metadata-100-deep", "metadata-100k-keys",
        "metadata-1MiB", "zero-width-only", "invisible-only", "filler-only",
    ],
)
async def test_a_hostile_memory_is_a_4xx_and_nothing_is_stored(
    client: Client, tenant: TenantKeys, body: dict[str, Any]
) -> None:
    body = {"user_id": "alice", **body}  # an unpinned key: the user is named in the body
    response = await post_json(client, "/v1/memories", body, tenant.writer)
    problem = assert_problem(response, 422)
    assert len(response.content) < 4096  # the problem quotes nothing whole
    assert problem["type"].startswith("urn:memlane:problem:")
    assert await count(client, tenant.alice) == 0


async def test_a_nul_in_a_patch_is_a_4xx_and_changes_nothing(
    client: Client, tenant: TenantKeys
) -> None:
    stored = await client.post(
        "/v1/memories", json={"content": "I like green tea."}, headers=tenant.alice
    )
    memory_id = stored.json()["memory"]["id"]
    for patch in ({"tags": [NUL]}, {"metadata": {"k": NUL}}, {"metadata": nested(100)}):
        response = await client.patch(
            f"/v1/memories/{memory_id}",
            content=msgspec.json.encode(patch),
            headers={**tenant.alice, "Content-Type": "application/json"},
        )
        assert_problem(response, 422)
    after = await client.get(f"/v1/memories/{memory_id}", headers=tenant.alice)
    assert after.json()["tags"] == [] and after.json()["metadata"] == {}


async def test_metadata_nested_a_thousand_deep_is_a_400_and_nothing_is_stored(
    client: Client, tenant: TenantKeys
) -> None:
    body = {"content": "I like tea.", "metadata": nested(1_000)}
    response = await post_json(client, "/v1/memories", body, tenant.alice)
    assert assert_problem(response, 400)["type"].endswith("malformed-body")
    assert await count(client, tenant.alice) == 0


@pytest.mark.parametrize(
    "query",
    [
        {"tag": f"t{NUL}"},
        {"conversation_id": f"c{NUL}"},
        {"user_id": f"alice{NUL}"},
        {"cursor": f"x{NUL}"},
    ],
    ids=["tag", "conversation", "user", "cursor"],
)
async def test_a_nul_in_a_list_filter_is_a_4xx(
    client: Client, tenant: TenantKeys, query: dict[str, str]
) -> None:
    response = await client.get(
        "/v1/memories", params={"user_id": "alice", **query}, headers=tenant.writer
    )
    assert 400 <= response.status_code < 500, response.text
    assert response.headers["content-type"].startswith("application/problem+json")


async def test_a_nul_in_the_user_of_a_search_or_context_is_a_4xx(
    client: Client, tenant: TenantKeys
) -> None:
    search = await client.get(
        "/v1/memories/search", params={"q": "tea", "user_id": NUL}, headers=tenant.writer
    )
    assert_problem(search, 422)
    context = await client.post(
        "/v1/context", json={"query": "tea", "user_id": f"a{NUL}"}, headers=tenant.writer
    )
    assert_problem(context, 422)
    conversation = await client.post(
        "/v1/context",
        json={"query": "tea", "user_id": "alice", "conversation_id": f"c{NUL}"},
        headers=tenant.writer,
    )
    assert_problem(conversation, 422)


@pytest.mark.parametrize(
    "raw",
    [
        b'{"content": "caf\xe9 au lait"}',  # latin-1
        b'{"content": "\xff\xfe\xfd"}',  # not UTF-8 at all
        b'{"content": "ok", "tags": ["\xc3"]}',  # a truncated sequence
    ],
    ids=["latin-1", "garbage", "truncated"],
)
async def test_a_body_that_is_not_utf8_is_a_400(
    client: Client, tenant: TenantKeys, raw: bytes
) -> None:
    response = await client.post(
        "/v1/memories",
        content=raw,
        headers={**tenant.alice, "Content-Type": "application/json"},
    )
    body = assert_problem(response, 400)
    assert body["type"].endswith("malformed-body")
    assert await count(client, tenant.alice) == 0


@pytest.mark.parametrize("content_type", ["text/plain", None, "application/x-www-form-urlencoded"])
async def test_a_json_route_refuses_other_content_types_with_415(
    client: Client, tenant: TenantKeys, content_type: str | None
) -> None:
    headers = dict(tenant.alice)
    if content_type is not None:
        headers["Content-Type"] = content_type
    response = await client.post(
        "/v1/memories", content=b'{"content": "I like tea."}', headers=headers
    )
    assert_problem(response, 415)
    assert await count(client, tenant.alice) == 0


async def test_json_with_a_charset_or_a_json_suffix_is_accepted(
    client: Client, tenant: TenantKeys
) -> None:
    for content_type in ("application/json; charset=utf-8", "application/merge-patch+json"):
        response = await client.post(
            "/v1/memories",
            content=b'{"content": "I like tea and biscuits."}',
            headers={**tenant.alice, "Content-Type": content_type},
        )
        assert response.status_code in (200, 201), response.text


async def test_an_oversized_query_is_refused_without_being_echoed(
    client: Client, tenant: TenantKeys
) -> None:
    marker = "needle" * 10_000  # 60,000 characters: httpx sends no longer query component
    response = await client.get(
        "/v1/memories/search", params={"q": marker}, headers=tenant.alice
    )
    assert 400 <= response.status_code < 500
    assert "needle" * 50 not in response.text
    assert len(response.content) < 4096


async def test_an_empty_batch_is_a_422(client: Client, tenant: TenantKeys) -> None:
    response = await client.post(
        "/v1/memories/batch", json={"memories": [], "user_id": "alice"}, headers=tenant.writer
    )
    assert_problem(response, 422)


@pytest.mark.parametrize(
    "body",
    [
        {"relation": "likes", "object": f"green{NUL}tea"},
        {"relation": "likes", "object": "tea", "subject": f"my{NUL}sister"},
        {"relation": f"li{NUL}kes", "object": "tea"},
        {"relation": "likes", "object": "\u200b\u200b"},
    ],
    ids=["nul-object", "nul-subject", "nul-relation", "invisible-object"],
)
async def test_a_hostile_fact_is_a_4xx_or_stored_safely_never_a_5xx(
    client: Client, tenant: TenantKeys, body: dict[str, Any]
) -> None:
    response = await client.post("/v1/facts", json=body, headers=tenant.alice)
    assert response.status_code < 500, response.text
    listed = await client.get("/v1/facts", headers=tenant.alice)
    assert listed.status_code == 200, listed.text
