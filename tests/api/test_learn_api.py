"""POST /v1/memories/learn refuses a blank side of the exchange, as it always has."""

from __future__ import annotations

import httpx
import pytest

from tests.api.conftest import TenantKeys, assert_problem, count

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("side", ["question", "answer"])
async def test_a_blank_side_of_an_exchange_to_learn_is_a_422(
    client: httpx.AsyncClient, tenant: TenantKeys, side: str
) -> None:
    body = {"question": "What is my favourite colour?", "answer": "Your favourite is teal."}
    response = await client.post(
        "/v1/memories/learn", json={**body, side: "   "}, headers=tenant.alice
    )
    assert_problem(response, 422)
    assert await count(client, tenant.alice) == 0
