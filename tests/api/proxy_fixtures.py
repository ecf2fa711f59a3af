"""Fixtures of the proxy's tests: a stub upstream and memlane on real uvicorn servers on the
loopback (streams need a real socket: httpx's ASGI transport buffers a whole response), the
real app over the real stack, and the official `openai` client pointed at memlane."""

from __future__ import annotations

import asyncio
import functools
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from typing import Any

import httpx
import openai
import pytest
import uvicorn

from memlane.adapters.http.upstream import HttpxUpstreamAdapter, UpstreamTimeouts
from memlane.api.app import create_app
from memlane.api.config import ApiConfig
from memlane.api.deps import ApiServices
from memlane.service.proxy import ChatProxy
from memlane.service.proxy.memory import learn
from memlane.service.proxy.queue import LearningQueue
from tests.api.conftest import API_KEY, services_opener
from tests.stubs.openai_upstream import StubUpstream

UPSTREAM_KEY = "sk-upstream-secret"


@asynccontextmanager
async def served(app: Any, lifespan: str = "on") -> AsyncIterator[str]:
    """`app` on uvicorn at 127.0.0.1 (a free port) in this event loop; yields its URL."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(
        app, log_level="warning", lifespan=lifespan, timeout_graceful_shutdown=5
    ))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        while not server.started:
            if task.done():
                task.result()
                raise RuntimeError("uvicorn did not start")
            await asyncio.sleep(0.01)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task
        sock.close()


@dataclass
class ProxyStack:
    """memlane with its proxy in front of the stub upstream, and ways to talk to both."""

    url: str
    upstream: StubUpstream
    proxy: ChatProxy
    http: httpx.AsyncClient

    def openai(self, token: str, **headers: str) -> openai.AsyncOpenAI:
        return openai.AsyncOpenAI(
            base_url=f"{self.url}/v1", api_key=token, max_retries=0,
            default_headers=headers or None,
        )

    async def learned(self) -> None:
        """Wait until every exchange queued so far is stored."""
        await self.proxy.learning.drained()


TEST_TIMEOUTS = UpstreamTimeouts(connect_s=5, first_byte_s=30, chunk_gap_s=30)


@asynccontextmanager
async def proxy_stack(
    api_services: ApiServices,
    config: ApiConfig | None = None,
    *,
    upstream_url: str | None = "stub",
    timeouts: UpstreamTimeouts = TEST_TIMEOUTS,
    queue: LearningQueue | None = None,
) -> AsyncIterator[ProxyStack]:
    """The stub upstream (unless `upstream_url` names another, or None: none configured),
    and memlane's app with a proxy to it, both served on the loopback."""
    stub = StubUpstream()
    async with served(stub, lifespan="off") as stub_url:
        url = stub_url if upstream_url == "stub" else upstream_url
        service = api_services.service
        adapter = None if url is None else HttpxUpstreamAdapter(f"{url}/v1", UPSTREAM_KEY, timeouts)
        proxy = ChatProxy(
            service, adapter, API_KEY,
            queue or LearningQueue(functools.partial(learn, service), 2, 64),
            max_segment_bytes=service.policy.max_content_bytes,
        )
        proxy.learning.start()
        app = create_app(services_opener(replace(api_services, proxy=proxy)), config or ApiConfig())
        try:
            async with served(app) as memlane, httpx.AsyncClient(
                base_url=memlane, timeout=60
            ) as http:
                yield ProxyStack(memlane, stub, proxy, http)
        finally:
            await proxy.learning.stop()
            if adapter is not None:
                await adapter.close()


@pytest.fixture
async def stack(api_services: ApiServices) -> AsyncIterator[ProxyStack]:
    async with proxy_stack(api_services) as running:
        yield running
