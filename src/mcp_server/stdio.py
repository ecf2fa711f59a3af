"""`memlane mcp`: the MCP tools over stdio, acting for one user, for a desktop assistant."""

from __future__ import annotations

from memlane.domain.security import Principal, Scope
from memlane.mcp_server.caller import CALLER, Caller, McpServices
from memlane.mcp_server.server import build_server


async def serve_stdio(services: McpServices, tenant: str, user_id: str) -> None:
    """Serve until the client closes stdin. The process is the user's own (it reads the
    encryption key), so it acts for `user_id` with read and write, as a pinned key would."""
    principal = Principal(
        key_id=None, tenant=tenant, user_id=user_id, scopes=frozenset({Scope.READ, Scope.WRITE})
    )
    token = CALLER.set(Caller(principal, services))
    try:
        await build_server().run_stdio_async()
    finally:
        CALLER.reset(token)
