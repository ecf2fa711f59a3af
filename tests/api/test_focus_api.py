"""Session focus through the real app: a new conversation on the same topic resumes the last
one's focus, another topic resumes nothing, and erasure leaves no focus row (docs/levels.md)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace

import asyncpg
import httpx
import pytest

from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.api.app import create_app
from memlane.api.config import ApiConfig
from memlane.api.deps import ApiServices
from memlane.domain.policy import DetailTuning, MemoryPolicy
from tests.api.conftest import TenantKeys, build_service, serve, services_opener

pytestmark = pytest.mark.integration

KITCHEN = [
    "We are renovating the kitchen and chose oak cabinets with brass handles",
    "Marek the tiler starts on Monday at eight",
    "The kitchen renovation budget is twelve thousand euros, the sink not included",
]
OTHER = [
    "Our cat Mochi hates the vacuum cleaner",
    "My sister Lena plays the cello in a youth orchestra",
    "We watched a documentary about deep sea creatures",
]


@pytest.fixture
async def focused(
    api_services: ApiServices, pg_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter
) -> AsyncIterator[httpx.AsyncClient]:
    """The app with session focus switched on (it is off by default: docs/levels.md)."""
    policy = MemoryPolicy(detail=DetailTuning(focus=True))
    services = replace(api_services, service=build_service(pg_pool, embedder, policy))
    async with serve(create_app(services_opener(services), ApiConfig())) as http:
        yield http


async def context(
    client: httpx.AsyncClient, headers: dict[str, str], query: str, conversation: str | None
) -> list[dict[str, object]]:
    body = {"query": query, "limit": 5,
            **({"conversation_id": conversation} if conversation else {})}
    response = await client.post("/v1/context", json=body, headers=headers)
    assert response.status_code == 200, response.text
    memories: list[dict[str, object]] = response.json()["memories"]
    return memories


async def test_a_new_conversation_resumes_its_topic_and_erasure_takes_the_focus(
    focused: httpx.AsyncClient, tenant: TenantKeys, pg_pool: asyncpg.Pool
) -> None:
    client = focused
    ids = {}
    for content in KITCHEN + OTHER:
        made = await client.post("/v1/memories", json={"content": content}, headers=tenant.alice)
        assert made.status_code == 201, made.text
        ids[content] = made.json()["memory"]["id"]
    for question in ("How is the kitchen renovation going?", "When does Marek the tiler start?"):
        await context(client, tenant.alice, question, "chat-a")

    follow_up = "Any news on the kitchen renovation?"
    alone = await context(client, tenant.alice, follow_up, None)
    resumed = await context(client, tenant.alice, follow_up, "chat-b")
    elsewhere = await context(client, tenant.alice, "What does my sister play?", "chat-c")

    marek = ids[KITCHEN[1]]
    assert marek not in {m["id"] for m in alone}
    assert {m["role"] for m in resumed if m["id"] == marek} == {"focus"}
    assert "focus" not in {m["role"] for m in elsewhere}

    erased = await client.delete("/v1/memories", params={"confirm": "true"}, headers=tenant.alice)
    assert erased.status_code in (200, 204), erased.text
    left = await pg_pool.fetchval(
        "SELECT count(*) FROM conversation_focus WHERE tenant = $1 AND user_id = 'alice'",
        tenant.tenant,
    )
    assert left == 0
