"""The MCP server: memlane's tools on one `MCPServer`, whatever the transport."""

from __future__ import annotations

import logging
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from pydantic import ValidationError

from memlane.mcp_server.fact_tools import register_fact_tools
from memlane.mcp_server.graph_tools import register_graph_tools
from memlane.mcp_server.history_tools import register_history_tools
from memlane.mcp_server.memory_tools import register_memory_tools

INSTRUCTIONS = (
    "memlane is the user's private long-term memory. Before answering, call get_context "
    "with the user's message; when the user tells you something worth keeping (a fact, a "
    "preference, a correction), call remember with one self-contained statement. recall "
    "finds memories and their ids for update and forget; profile and list_facts show what "
    "memlane knows about the user as facts, history what happened to a memory or fact. "
    "The knowledge-graph tools "
    "(create_entities, create_relations, add_observations, search_nodes, open_nodes, "
    "read_graph) keep people, places and things and how they relate."
)


class MemlaneServer(MCPServer):
    """The SDK's server with memlane's promise on failures: one line of text (docs/mcp.md).
    Arguments that fail the tool's schema are named field by field, without the validation
    library's multi-line report or its help links."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise
        except ToolError as error:
            cause = error.__cause__
            if isinstance(cause, ValidationError):
                # Kept as the cause: the SDK logs the rejected fields' names from it.
                raise ToolError(f"invalid arguments for {name}: {invalid(cause)}") from cause
            raise ToolError(" ".join(str(error).split())) from cause


def invalid(error: ValidationError) -> str:
    """What was wrong with each argument, on one line: `importance: Input should be less
    than or equal to 1; memory_id: Field required`."""
    return "; ".join(
        f"{'.'.join(str(part) for part in e['loc']) or 'arguments'}: "
        + " ".join(str(e["msg"]).split())
        for e in error.errors(include_url=False)
    )


def build_server() -> MCPServer:
    """A server with every memlane tool; the caller (identity, services) comes per call."""
    server: MCPServer = MemlaneServer(
        "memlane", instructions=INSTRUCTIONS, log_level="WARNING", subscriptions=False
    )
    # The SDK logs a failed tool's message at INFO; ours may name an entity: keep it quiet.
    logging.getLogger("mcp.server.mcpserver.server").setLevel(logging.WARNING)
    register_memory_tools(server)
    register_fact_tools(server)
    register_history_tools(server)
    register_graph_tools(server)
    return server
