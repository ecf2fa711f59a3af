"""Saying the same thing twice through the real app merges without repeating it."""

from __future__ import annotations

import httpx
import pytest

from tests.api.conftest import TenantKeys, count

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("again", ["I live in Lisbon", "i live in Lisbon.", "I live in Lisbon!"])
async def test_storing_the_same_text_twice_does_not_append_it_as_additional_context(
    client: httpx.AsyncClient, tenant: TenantKeys, again: str
) -> None:
    first = await client.post("/v1/memories", json={"content": "I live in Lisbon"},
                              headers=tenant.alice)
    second = await client.post("/v1/memories", json={"content": again}, headers=tenant.alice)
    assert first.status_code == 201 and second.status_code == 200, second.text
    assert second.json()["merged"] is True
    assert second.json()["memory"]["content"] == "I live in Lisbon"
    assert await count(client, tenant.alice) == 1
