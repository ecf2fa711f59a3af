"""Two conversations through the proxy with the `openai` client: what one chat tells, a new
chat's system message carries (English and German); one user's facts never reach another."""

from __future__ import annotations

import pytest

from memlane.domain.security.auth import Scope
from tests.api.conftest import TenantKeys
from tests.api.proxy_fixtures import ProxyStack, stack

pytestmark = pytest.mark.integration
__all__ = ["stack"]


def token(headers: dict[str, str]) -> str:
    return headers["Authorization"].removeprefix("Bearer ")


async def tell_then_ask(
    stack: ProxyStack, key: str, told: str, asked: str, *, stream: bool
) -> str:
    """`told` in one chat (streamed or not), then `asked` opening a new chat; returns the
    system message the upstream received for the question."""
    client = stack.openai(key)
    first = [{"role": "user", "content": told}]
    if stream:
        chunks = await client.chat.completions.create(
            model="stub-model", messages=first, stream=True  # type: ignore[arg-type]
        )
        async for _ in chunks:
            pass
    else:
        await client.chat.completions.create(model="stub-model", messages=first)  # type: ignore[arg-type]
    await stack.learned()
    await client.chat.completions.create(
        model="stub-model", messages=[{"role": "user", "content": asked}]
    )
    return stack.upstream.chats()[-1].system


async def test_a_fact_told_in_one_chat_reaches_the_system_message_of_a_new_chat(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    system = await tell_then_ask(
        stack, token(tenant.alice),
        "I work as a beekeeper in Salzburg, and my daughter is called Ilse.",
        "What is my daughter's name?", stream=True,
    )
    assert "my daughter is called Ilse" in system


async def test_a_fact_told_in_german_reaches_a_new_german_chat(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    system = await tell_then_ask(
        stack, token(tenant.alice),
        "Ich wohne in Hamburg und arbeite als Tischlerin in einer kleinen Werkstatt.",
        "Wo wohne ich eigentlich?", stream=False,
    )
    assert "Ich wohne in Hamburg" in system


async def test_a_fact_of_one_user_never_reaches_a_request_made_for_another(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    await tell_then_ask(
        stack, token(tenant.alice), "My bank PIN hint is platypus, remember it.",
        "What is my PIN hint?", stream=False,
    )
    assert "platypus" in stack.upstream.chats()[-1].system
    bob = await tell_then_ask(
        stack, token(tenant.bob), "I like hiking in the Alps.", "What is my PIN hint?",
        stream=True,
    )
    assert "platypus" not in bob
    unpinned = (await tenant.keys.create(tenant.tenant, [Scope.READ, Scope.WRITE])).token
    client = stack.openai(unpinned)
    await client.chat.completions.create(
        model="stub-model", user="bob",
        messages=[{"role": "user", "content": "What is my PIN hint?"}],
    )
    assert "platypus" not in stack.upstream.chats()[-1].system
    assert "platypus" not in str(stack.upstream.chats()[-1].body)
