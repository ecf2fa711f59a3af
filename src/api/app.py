"""The Litestar app factory: routes, auth, problem+json errors, metrics, lifespan."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from litestar import Litestar, Router
from litestar.config.cors import CORSConfig
from litestar.datastructures import State
from litestar.di import Provide
from litestar.types import ControllerRouterHandler

from memlane.api.actor import actor_middleware
from memlane.api.auth import provide_principal, scope_guard
from memlane.api.config import ApiConfig
from memlane.api.controllers.consolidation import ConsolidationController
from memlane.api.controllers.context import ContextController, ExpandController
from memlane.api.controllers.conversations import ConversationsController
from memlane.api.controllers.facts import FactsController, ProfileController, TopicsController
from memlane.api.controllers.health import HealthController
from memlane.api.controllers.history import HistoryController
from memlane.api.controllers.imports import ImportsController
from memlane.api.controllers.maintenance import (
    CleanupController,
    DecayController,
    SleepController,
)
from memlane.api.controllers.memories import MemoriesController
from memlane.api.controllers.memory_graph import MemoryGraphController
from memlane.api.controllers.proxy import (
    ChatCompletionsController,
    ModelsController,
    unsupported_routes,
)
from memlane.api.deps import ApiServices, provide_services
from memlane.api.errors import EXCEPTION_HANDLERS
from memlane.api.metrics import ApiMetrics
from memlane.api.openapi import SECURITY, document_problems, openapi_config, swagger_assets
from memlane.api.transport import check_json_body
from memlane.api.ui import ui_routers, ui_template_config

OpenServices = Callable[[], AbstractAsyncContextManager[ApiServices]]
Lifespan = Callable[[Litestar], AbstractAsyncContextManager[None]]


def create_app(
    open_services: OpenServices,
    config: ApiConfig | None = None,
    metrics: ApiMetrics | None = None,
    mounts: Sequence[ControllerRouterHandler] = (),
    lifespans: Sequence[Lifespan] = (),
) -> Litestar:
    """Build the app. `open_services` is entered in the lifespan: it runs migrations,
    opens the pool, loads the model and starts the worker, and closes them all on exit.

    Pass `metrics` when the composition root also times the embedder with
    `metrics.embedding_seconds`, so embedding latency lands in this app's registry.
    `mounts` (e.g. `/mcp`) join the routes; their `lifespans` run inside the services'.
    """
    config = config or ApiConfig()
    metrics = metrics or ApiMetrics()

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        async with open_services() as services:
            app.state.services = services
            metrics.watch_worker(services.worker)
            metrics.watch_proxy(services.proxy)
            metrics.watch_gate(services.service.gate_counts)
            metrics.watch_probe(services.service.probing)
            metrics.watch_embedder(services.embedder)
            try:
                yield
            finally:
                metrics.watch_worker(None)
                metrics.watch_proxy(None)
                metrics.watch_gate(None)
                metrics.watch_probe(None)
                metrics.watch_embedder(None)

    v1 = Router(
        path="/",
        route_handlers=[
            MemoriesController,
            DecayController,
            CleanupController,
            SleepController,
            ContextController,
            ExpandController,
            ConversationsController,
            MemoryGraphController,
            HistoryController,
            FactsController,
            ProfileController,
            ImportsController,
            TopicsController,
            ConsolidationController,  # issue 13
            ChatCompletionsController,  # the memory proxy (docs/proxy.md)
            ModelsController,
        ],
        guards=[scope_guard],
        dependencies={"principal": Provide(provide_principal)},
        before_request=check_json_body,
        security=SECURITY,
    )
    app = Litestar(
        route_handlers=[
            v1, unsupported_routes(), HealthController, swagger_assets(), *mounts,
            *(ui_routers() if config.ui_enabled else []),
        ],
        template_config=ui_template_config() if config.ui_enabled else None,
        lifespan=[lifespan, *lifespans],
        dependencies={
            "services": Provide(provide_services, sync_to_thread=False),
            "config": Provide(lambda: config, sync_to_thread=False, use_cache=True),
            "metrics": Provide(lambda: metrics, sync_to_thread=False, use_cache=True),
        },
        state=State({"api_config": config, "retry_after_s": config.retry_after_s}),
        exception_handlers=EXCEPTION_HANDLERS,
        middleware=[metrics.middleware, actor_middleware],
        request_max_body_size=config.max_request_bytes,
        cors_config=_cors(config),
        openapi_config=openapi_config(),
        debug=config.debug,
    )
    document_problems(app)
    return app


def _cors(config: ApiConfig) -> CORSConfig | None:
    """CORS only for the origins configured (server.cors_origins); none: no CORS at all."""
    if not config.cors_origins:
        return None
    return CORSConfig(
        allow_origins=list(config.cors_origins),
        allow_headers=["Authorization", "Content-Type", "X-Memlane-Memory", "X-Conversation-Id"],
        expose_headers=[
            "X-Memlane-Memory", "X-Memlane-Memories-Injected", "X-Memlane-Memory-Reason",
            "X-Memlane-Memory-Degraded",
        ],
    )
