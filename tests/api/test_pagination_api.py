"""Cursor pagination neither skips nor repeats, even while new memories arrive."""

from __future__ import annotations

import asyncio
import random

import httpx
import pytest

from tests.api.conftest import TenantKeys

pytestmark = pytest.mark.integration

WORDS = (
    "apple", "harbour", "violin", "glacier", "tax", "router", "nephew", "marathon", "saffron",
    "tram", "quartz", "ballet", "mortgage", "owl", "compiler", "lantern", "drought", "pepper",
    "satellite", "chess", "velvet", "tornado", "bakery", "vaccine", "canyon", "piano",
    "ledger", "falcon", "yoga", "turbine", "oyster", "parliament", "sandal", "comet",
)


def _sentences(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.sample(WORDS, 6)) + f" #{seed}-{i}" for i in range(count)]


async def test_pages_neither_skip_nor_repeat_under_concurrent_inserts(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    seeded = await client.post(
        "/v1/memories/batch",
        json={"memories": [{"content": c} for c in _sentences(25, 1)]},
        headers=tenant.alice,
    )
    assert seeded.status_code == 201, seeded.text
    original = {r["memory"]["id"] for r in seeded.json()["results"]}

    seen: list[str] = []
    cursor: str | None = None
    writer_seed = 100
    while True:
        params = {"limit": "4", **({"cursor": cursor} if cursor else {})}
        page, inserted = await asyncio.gather(
            client.get("/v1/memories", params=params, headers=tenant.alice),
            client.post(
                "/v1/memories",
                json={"content": _sentences(1, writer_seed)[0]},
                headers=tenant.alice,
            ),
        )
        writer_seed += 1
        assert page.status_code == 200 and inserted.is_success, (page.text, inserted.text)
        body = page.json()
        assert len(body["items"]) <= 4
        seen.extend(m["id"] for m in body["items"])
        cursor = body["next_cursor"]
        if cursor is None:
            break

    assert len(seen) == len(set(seen)), "a memory was repeated across pages"
    assert original <= set(seen), "a memory that existed before paging began was skipped"
    created = [m for m in seen if m in original]
    assert len(created) == len(original)


async def test_the_last_page_has_no_cursor_and_the_default_limit_is_50(
    client: httpx.AsyncClient, tenant: TenantKeys
) -> None:
    await client.post(
        "/v1/memories/batch",
        json={"memories": [{"content": c} for c in _sentences(3, 7)]},
        headers=tenant.alice,
    )
    body = (await client.get("/v1/memories", headers=tenant.alice)).json()
    assert len(body["items"]) == 3 and body["next_cursor"] is None
    first = (await client.get("/v1/memories", params={"limit": "2"}, headers=tenant.alice)).json()
    assert len(first["items"]) == 2 and first["next_cursor"]
    rest = (
        await client.get(
            "/v1/memories", params={"limit": "2", "cursor": first["next_cursor"]},
            headers=tenant.alice,
        )
    ).json()
    assert len(rest["items"]) == 1 and rest["next_cursor"] is None
    created = [m["created_at"] for m in first["items"] + rest["items"]]
    assert created == sorted(created, reverse=True)
