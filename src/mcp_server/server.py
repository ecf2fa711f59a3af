"""The MCP server: memlane's tools on one `MCPServer`, whatever the transport."""

from __future__ import annotations

import logging

from mcp.server.mcpserver import MCPServer

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


def build_server() -> MCPServer:
    """A server with every memlane tool; the caller (identity, services) comes per call."""
    server: MCPServer = MCPServer(
        "memlane", instructions=INSTRUCTIONS, log_level="WARNING", subscriptions=False
    )
    # The SDK logs a failed tool's message at INFO; ours may name an entity: keep it quiet.
    logging.getLogger("mcp.server.mcpserver.server").setLevel(logging.WARNING)
    register_memory_tools(server)
    register_fact_tools(server)
    register_history_tools(server)
    register_graph_tools(server)
    return server
