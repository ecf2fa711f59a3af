"""`memlane serve` as a process with `[proxy] upstream_url` on a stub upstream: the composition
opens the proxy, the `openai` client chats through it, and a new chat gets what the first
one taught."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator

import httpx
import openai
import pytest
import uvicorn

from tests.e2e.test_serve_process import Deployment, serving
from tests.stubs.openai_upstream import StubUpstream

pytestmark = pytest.mark.e2e
LEARNING_DEADLINE_S = 60  # a hang guard for the background learning, not a timing


@pytest.fixture(scope="module")
def upstream() -> Iterator[tuple[StubUpstream, str]]:
    """The stub upstream on uvicorn in a thread of its own."""
    stub = StubUpstream()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(stub, log_level="warning", lifespan="off"))
    thread = threading.Thread(
        target=lambda: asyncio.run(server.serve(sockets=[sock])), daemon=True
    )
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        yield stub, f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


@pytest.fixture(scope="module")
def proxied(upstream: tuple[StubUpstream, str]) -> Iterator[Deployment]:
    with serving(
        "memlane-e2e-proxy-", MEMLANE_PROXY__UPSTREAM_URL=f"{upstream[1]}/v1",
        MEMLANE_UPSTREAM_KEY="sk-e2e-upstream", MEMLANE_WORKER__ENABLED="false",
    ) as (deployment, _, _):
        yield deployment


def learned(deployment: Deployment, token: str, count: int) -> list[dict[str, object]]:
    headers = {"Authorization": f"Bearer {token}"}
    deadline = time.monotonic() + LEARNING_DEADLINE_S
    while True:
        items = httpx.get(f"{deployment.base_url}/v1/memories", headers=headers).json()["items"]
        if len(items) >= count or time.monotonic() > deadline:
            return list(items)
        time.sleep(0.2)


def test_a_chat_through_serve_teaches_a_new_chat(
    proxied: Deployment, upstream: tuple[StubUpstream, str]
) -> None:
    stub, _ = upstream
    token = proxied.token("e2e-proxy", "hanna")
    client = openai.OpenAI(base_url=f"{proxied.base_url}/v1", api_key=token, max_retries=0)
    stream = client.chat.completions.create(
        model="stub-model", stream=True,
        messages=[{"role": "user", "content": "I grow tomatoes on my balcony in Bremen."}],
    )
    assert "".join(c.choices[0].delta.content or "" for c in stream if c.choices).strip()
    stored = learned(proxied, token, 1)
    assert [m["content"] for m in stored] == [
        "user: I grow tomatoes on my balcony in Bremen.\nassistant: Reply 1: noted."
    ]
    client.chat.completions.create(
        model="stub-model", messages=[{"role": "user", "content": "Where do I grow tomatoes?"}]
    )
    last = stub.chats()[-1]
    assert "I grow tomatoes on my balcony in Bremen." in last.system
    assert last.headers["authorization"] == "Bearer sk-e2e-upstream"
    assert [m.id for m in client.models.list()] == ["stub-model", "stub-task-model"]
    metrics = httpx.get(f"{proxied.base_url}/metrics").text
    assert 'memlane_proxy_requests_total{kind="forwarded"} 2.0' in metrics
