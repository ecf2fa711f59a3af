"""Whom a proxied chat is for: pinned keys, `user`, Open WebUI's headers; scopes and modes."""

from __future__ import annotations

from typing import Any

import pytest

from memlane.domain.security.auth import Scope
from tests.api.conftest import TenantKeys, assert_problem, bearer
from tests.api.proxy_fixtures import ProxyStack, stack

pytestmark = pytest.mark.integration
__all__ = ["stack"]
HI = [{"role": "user", "content": "I keep bees on my balcony in Vienna."}]


async def chat(stack: ProxyStack, headers: dict[str, str], **body: Any) -> Any:
    return await stack.http.post(
        "/v1/chat/completions", headers=headers,
        json={"model": "stub-model", "messages": HI, **body},
    )


async def stored_for(stack: ProxyStack, tenant: TenantKeys, user: str) -> list[str]:
    await stack.learned()
    token = await tenant.token([Scope.READ], user)
    listed = await stack.http.get("/v1/memories", headers=bearer(token))
    return [m["content"] for m in listed.json()["items"]]


async def test_a_pinned_key_acts_for_its_user_whatever_user_the_client_sends(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    answered = await chat(stack, tenant.alice, user="librechat-6650f1a2")
    assert answered.status_code == 200, answered.text
    assert stack.upstream.chats()[0].body["user"] == "librechat-6650f1a2"  # passed through
    assert len(await stored_for(stack, tenant, "alice")) == 1
    assert await stored_for(stack, tenant, "librechat-6650f1a2") == []


async def test_an_unpinned_key_names_the_user_by_the_user_field(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    assert (await chat(stack, tenant.writer, user="carol")).status_code == 200
    assert len(await stored_for(stack, tenant, "carol")) == 1


async def test_an_unpinned_key_without_a_user_gets_a_clear_400(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    body = assert_problem(await chat(stack, tenant.writer), 400)
    assert "user" in body["detail"] and body["error"]["type"] == "invalid_request_error"
    assert stack.upstream.chats() == []


async def test_open_webui_headers_name_the_user_only_for_a_key_that_trusts_them(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    headers = {"X-OpenWebUI-User-Id": "dave", "X-OpenWebUI-Chat-Id": "owui-chat-1"}
    untrusted = await chat(stack, {**tenant.writer, **headers})
    assert_problem(untrusted, 400)
    created = await tenant.keys.create(
        tenant.tenant, [Scope.READ, Scope.WRITE], trusts_openwebui_headers=True
    )
    trusting = bearer(created.token)
    # The trusted header wins over a `user` a chat user could set in Open WebUI's params.
    answered = await chat(stack, {**trusting, **headers}, user="erin")
    assert answered.status_code == 200, answered.text
    await stack.learned()
    token = await tenant.token([Scope.READ], "dave")
    listed = await stack.http.get(
        "/v1/memories", params={"conversation_id": "owui-chat-1"}, headers=bearer(token)
    )
    assert len(listed.json()["items"]) == 1
    assert await stored_for(stack, tenant, "erin") == []


async def test_a_read_only_key_gets_memory_and_stores_nothing_and_is_told_so(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    asked_write = await chat(stack, {**tenant.alice_reader, "X-Memlane-Memory": "write"})
    assert asked_write.status_code == 200
    assert asked_write.headers["x-memlane-memory"] == "off"
    assert "memories:write" in asked_write.headers["x-memlane-memory-reason"]
    default = await chat(stack, tenant.alice_reader)
    assert default.headers["x-memlane-memory"] == "read"
    assert "downgraded" in default.headers["x-memlane-memory-reason"]
    assert await stored_for(stack, tenant, "alice") == []


async def test_memory_off_forwards_the_request_byte_for_byte_and_learns_nothing(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    await stack.http.post("/v1/memories", json={"content": "I keep bees."}, headers=tenant.alice)
    raw = b'{"model": "stub-model", "messages": [{"role": "user", "content": "bees?"}], ' \
          b'"temperature": 0.70, "tools": [], "response_format": {"type": "text"}}'
    answered = await stack.http.post(
        "/v1/chat/completions", content=raw,
        headers={**tenant.alice, "X-Memlane-Memory": "off", "Content-Type": "application/json"},
    )
    assert answered.headers["x-memlane-memory"] == "off"
    assert answered.headers["x-memlane-memories-injected"] == "0"
    assert stack.upstream.chats()[0].body == {
        "model": "stub-model", "messages": [{"role": "user", "content": "bees?"}],
        "temperature": 0.7, "tools": [], "response_format": {"type": "text"},
    }
    assert await stored_for(stack, tenant, "alice") == ["I keep bees."]


async def test_read_mode_injects_without_learning_and_write_mode_learns_without_injecting(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    await stack.http.post(
        "/v1/memories", json={"content": "I keep bees on my balcony."}, headers=tenant.alice
    )
    read = await chat(stack, {**tenant.alice, "X-Memlane-Memory": "read"})
    assert read.headers["x-memlane-memories-injected"] == "1"
    write = await chat(stack, {**tenant.alice, "X-Memlane-Memory": "write"})
    assert write.headers["x-memlane-memories-injected"] == "0"
    first, second = stack.upstream.chats()
    assert first.system and not second.system
    assert len(await stored_for(stack, tenant, "alice")) == 2


async def test_an_unknown_memory_header_is_a_400_naming_the_values(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    body = assert_problem(await chat(stack, {**tenant.alice, "X-Memlane-Memory": "maybe"}), 400)
    assert "off, read, write, on" in body["detail"]


async def test_open_webui_background_tasks_get_no_memory_and_teach_nothing(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    await stack.http.post("/v1/memories", json={"content": "I keep bees."}, headers=tenant.alice)
    task = [{"role": "user", "content": "### Task:\nGenerate a concise, 3-5 word title with "
             "an emoji summarizing the chat history.\n### Chat History:\n<chat_history>\n"
             "USER: I keep bees\n</chat_history>"}]
    answered = await chat(stack, tenant.alice, messages=task)
    assert answered.headers["x-memlane-memory"] == "off"
    assert "background task" in answered.headers["x-memlane-memory-reason"]
    assert stack.upstream.chats()[0].body["messages"] == task
    assert await stored_for(stack, tenant, "alice") == ["I keep bees."]
