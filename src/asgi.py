"""The ASGI app `memlane serve` runs (a uvicorn factory): the composition root behind the API."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from litestar import Litestar

from memlane.api.app import create_app as create_api_app
from memlane.api.config import ApiConfig
from memlane.api.deps import ApiServices
from memlane.api.metrics import ApiMetrics
from memlane.container import open_memlane
from memlane.mcp_server import build_server as build_mcp_server
from memlane.mcp_server.http import McpMount
from memlane.settings import Settings, load_settings


def create_app(settings: Settings | None = None) -> Litestar:
    """One container per process, opened in the app's lifespan and closed with it."""
    settings = settings or load_settings()
    logging.basicConfig(level=settings.logging.level, format="%(levelname)s %(name)s: %(message)s")
    metrics = ApiMetrics()

    @asynccontextmanager
    async def open_services() -> AsyncIterator[ApiServices]:
        async with open_memlane(
            settings,
            start_worker=settings.worker.enabled,
            embedding_histogram=metrics.embedding_seconds,
            on_unreadable=metrics.unreadable,
            open_proxy=True,
        ) as memlane:
            yield ApiServices(
                service=memlane.service,
                keys=memlane.keys,
                imports=memlane.imports,
                readiness=memlane.readiness,
                worker=memlane.worker,
                audit=memlane.audit,
                knowledge_graph=memlane.knowledge_graph,
                proxy=memlane.proxy,
                embedder=memlane.embedder,
            )

    config = ApiConfig(
        auth_enabled=settings.auth.enabled,
        max_import_bytes=settings.imports.max_upload_bytes,
        ui_enabled=settings.server.ui,
        cors_origins=tuple(settings.server.cors_origins),
    )
    # /mcp: the MCP tools over streamable HTTP, behind the same keys and body limit as /v1
    mcp = McpMount(build_mcp_server(), config.max_request_bytes)
    return create_api_app(
        open_services, config, metrics, mounts=[mcp.handler], lifespans=[mcp.lifespan]
    )
