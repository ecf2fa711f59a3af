"""The history tool: what happened to one memory or fact, from the audit trail."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from memlane.domain.security import Scope
from memlane.mcp_server.caller import acting, tool_errors
from memlane.mcp_server.memory_tools import READS, UserId
from memlane.mcp_server.views import history_view


def register_history_tools(server: MCPServer) -> None:
    """Add history to `server`."""

    @server.tool(annotations=READS)
    async def history(
        memory_id: Annotated[UUID | None, Field(description="A memory's id (from recall).")] = None,
        fact_id: Annotated[UUID | None, Field(description="A fact's id (from list_facts).")] = None,
        user_id: UserId = None,
    ) -> dict[str, Any]:
        """What happened to one memory or one fact, oldest first: created, merged, updated
        (old and new values), pinned, superseded, deleted, and who did it (a key, the CLI
        or memlane itself). Deleted memories keep their history. Give memory_id or fact_id."""
        with tool_errors("history"):
            owner, services = acting(Scope.READ, user_id)
            if (memory_id is None) == (fact_id is None):
                raise ToolError("give exactly one of memory_id and fact_id")
            audit = services.audit_trail()
            events = (
                await audit.memory_history(owner, memory_id) if memory_id is not None
                else await audit.fact_history(owner, fact_id)  # type: ignore[arg-type]
            )
            return {"events": [history_view(e) for e in events]}
