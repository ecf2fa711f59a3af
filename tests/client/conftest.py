"""Client test fixtures: the real app (tests/api) behind the async client, in-process over
ASGI, and behind a real uvicorn on 127.0.0.1 for the sync client."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest
import uvicorn
from litestar import Litestar

from memlane.api.app import create_app
from memlane.api.deps import ApiServices
from memlane.client import AsyncMemlaneClient, RetryPolicy
from tests.api.conftest import (  # noqa: F401 - session fixtures shared with the API tests
    api_services,
    app,
    audit_service,
    chat_importer,
    embedder,
    key_service,
    make_tenant,
    memory_service,
    serve,
    services_opener,
    tenant,
)

FAST_RETRY = RetryPolicy(attempts=3, max_total_s=1.0, default_delay_s=0.0)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@asynccontextmanager
async def live_server(asgi_app: Litestar) -> AsyncIterator[str]:
    """The app served by uvicorn on a free local port, on this event loop; yields its URL."""
    server = uvicorn.Server(
        uvicorn.Config(asgi_app, host="127.0.0.1", port=free_port(), log_level="warning")
    )
    task = asyncio.create_task(server.serve())
    while not server.started:
        assert not task.done(), "uvicorn failed to start"
        await asyncio.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{server.config.port}"
    finally:
        server.should_exit = True
        await task


@asynccontextmanager
async def remote(asgi_app: Litestar, token: str) -> AsyncIterator[AsyncMemlaneClient]:
    """An async client calling `asgi_app` in-process (its lifespan running) with `token`."""
    async with serve(asgi_app), AsyncMemlaneClient(
        "http://memlane.test", token, transport=httpx.ASGITransport(app=asgi_app), retry=FAST_RETRY
    ) as client:
        yield client


@pytest.fixture
async def base_url(api_services: ApiServices) -> AsyncIterator[str]:  # noqa: F811
    async with live_server(create_app(services_opener(api_services))) as url:
        yield url
