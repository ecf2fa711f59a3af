"""The official `openai` client pointed at memlane's proxy, against a stub upstream."""

from __future__ import annotations

import pytest

from memlane.domain.retrieval.context import PREAMBLE
from tests.api.conftest import TenantKeys, bearer, count
from tests.api.proxy_fixtures import UPSTREAM_KEY, ProxyStack, stack

pytestmark = pytest.mark.integration
__all__ = ["stack"]


def token_of(headers: dict[str, str]) -> str:
    return headers["Authorization"].removeprefix("Bearer ")


async def test_a_non_streamed_answer_comes_back_as_the_upstream_sent_it(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    client = stack.openai(token_of(tenant.alice))
    answer = await client.chat.completions.create(
        model="stub-model", messages=[{"role": "user", "content": "Hello there, how are you?"}],
        temperature=0.3,
    )
    assert answer.choices[0].message.content == "Reply 1: noted."
    sent = stack.upstream.chats()[0]
    assert sent.body["temperature"] == 0.3 and sent.body["model"] == "stub-model"
    # The upstream sees its own key, never the client's memlane key.
    assert sent.headers["authorization"] == f"Bearer {UPSTREAM_KEY}"
    assert token_of(tenant.alice) not in str(sent.headers)


async def test_a_streamed_answer_arrives_as_events_and_is_learned(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    client = stack.openai(token_of(tenant.alice))
    stream = await client.chat.completions.create(
        model="stub-model", stream=True,
        messages=[{"role": "user", "content": "My favourite colour is teal, remember it."}],
    )
    text = "".join([c.choices[0].delta.content or "" async for c in stream if c.choices])
    assert text.strip() == "Reply 1: noted."
    await stack.learned()
    listed = (await stack.http.get("/v1/memories", headers=tenant.alice)).json()["items"]
    assert [m["content"] for m in listed] == [
        "user: My favourite colour is teal, remember it.\nassistant: Reply 1: noted."
    ]
    assert listed[0]["metadata"]["source"] == "proxy"


async def test_memories_join_the_system_message_the_upstream_receives(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    stored = await stack.http.post(
        "/v1/memories", json={"content": "I live in Lisbon with my cat Miso."},
        headers=tenant.alice,
    )
    assert stored.status_code == 201, stored.text
    # The block POST /v1/context renders for the same query, asked first: the proxy learns
    # the exchange in the background, and a later context could hold it too.
    context = await stack.http.post(
        "/v1/context", json={"query": "Where do I live?"}, headers=tenant.alice
    )
    block = context.json()["context"]
    client = stack.openai(token_of(tenant.alice))
    raw = await client.chat.completions.with_raw_response.create(
        model="stub-model",
        messages=[
            {"role": "system", "content": "You are terse."},
            {"role": "user", "content": "Where do I live?"},
        ],
    )
    assert raw.headers["x-memlane-memories-injected"] == "1"
    assert raw.headers["x-memlane-memory"] == "on"
    sent = stack.upstream.chats()[0].body["messages"]
    assert len(sent) == 2  # merged into the existing system message, not a second one
    # That block, after the client's own text.
    assert sent[0]["content"] == "You are terse.\n\n" + block
    assert f"{PREAMBLE}\n- [fact] I live in Lisbon with my cat Miso." in block
    assert sent[1] == {"role": "user", "content": "Where do I live?"}


async def test_the_models_list_and_one_model_pass_through(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    client = stack.openai(token_of(tenant.alice))
    models = await client.models.list()
    assert [m.id async for m in models] == ["stub-model", "stub-task-model"]
    assert (await client.models.retrieve("stub-model")).id == "stub-model"
    missing = await stack.http.get("/v1/models/nothing-here", headers=tenant.alice)
    assert missing.status_code == 404  # the upstream's own answer, status and body
    assert missing.json() == {"error": {"message": "model nothing-here not found"}}
    assert await count(stack.http, bearer(token_of(tenant.alice))) == 0


async def test_metrics_count_forwarded_chats_and_learned_exchanges(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    client = stack.openai(token_of(tenant.alice))
    await client.chat.completions.create(
        model="stub-model", messages=[{"role": "user", "content": "I collect vinyl records."}]
    )
    await stack.learned()
    text = (await stack.http.get("/metrics")).text
    assert 'memlane_proxy_requests_total{kind="forwarded"} 1.0' in text
    assert 'memlane_proxy_learning_total{outcome="stored"} 1.0' in text
    assert 'memlane_proxy_learning_total{outcome="dropped"} 0.0' in text
    assert "memlane_proxy_learning_queue_depth 0.0" in text


async def test_a_model_id_never_reaches_another_path_of_the_upstream(
    stack: ProxyStack, tenant: TenantKeys
) -> None:
    for sneaky in ("..%2F..%2Fadmin", "a%2F..%2F..%2Fchat%2Fcompletions", "x%3Fy%23z"):
        await stack.http.get(f"/v1/models/{sneaky}", headers=tenant.alice)
    dots = await stack.http.get("/v1/models/..", headers=tenant.alice)
    assert dots.status_code in (400, 404)
    assert stack.upstream.chats() == []
    assert all(r.path.startswith("/v1/models/") for r in stack.upstream.received)
