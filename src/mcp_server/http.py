"""`/mcp` on `memlane serve`: the SDK's streamable HTTP transport behind the REST bearer keys."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from litestar import Litestar, asgi
from litestar.handlers import ASGIRouteHandler
from litestar.types import Receive, Scope, Send
from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings

from memlane.api.auth import scope_guard
from memlane.api.deps import ApiServices
from memlane.domain.security import Principal
from memlane.mcp_server.caller import CALLER, Caller, McpServices

MCP_PATH = "/mcp"


class McpMount:
    """The route handler and the lifespan that put an MCP server on the Litestar app.

    Stateless and JSON: every POST carries its own bearer key and is answered on its own,
    so `serve --workers N` needs no sticky sessions and no request can borrow another's
    identity through a session id."""

    def __init__(self, server: MCPServer, max_request_bytes: int) -> None:
        server.streamable_http_app(
            streamable_http_path=MCP_PATH,
            stateless_http=True,
            json_response=True,
            max_request_body_size=max_request_bytes,  # the REST API's limit (api.config)
            # Every request needs a bearer key a browser page does not hold, so a rebound
            # DNS name gains nothing; the check would refuse hosts behind a reverse proxy.
            transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        )
        self._manager = server.session_manager
        self.handler: ASGIRouteHandler = asgi(MCP_PATH, is_mount=True, guards=[scope_guard])(
            self._serve
        )

    @asynccontextmanager
    async def lifespan(self, _app: Litestar) -> AsyncIterator[None]:
        """The SDK's task group runs for the app's lifetime, inside its lifespan."""
        async with self._manager.run():
            yield

    async def _serve(self, scope: Scope, receive: Receive, send: Send) -> None:
        # The guard authenticated the key and kept its principal on the request's state.
        principal: Principal = scope["state"]["principal"]  # type: ignore[typeddict-item]
        services: ApiServices = scope["litestar_app"].state.services
        caller = Caller(principal, McpServices(
            services.service, services.knowledge_graph, services.audit
        ))
        token = CALLER.set(caller)
        try:
            await self._manager.handle_request(scope, receive, send)  # type: ignore[arg-type]
        finally:
            CALLER.reset(token)

