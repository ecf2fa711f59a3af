"""memlane as an MCP server (the official `mcp` SDK): tools over stdio and streamable HTTP."""

from memlane.mcp_server.caller import Caller, McpServices
from memlane.mcp_server.server import build_server

__all__ = ["Caller", "McpServices", "build_server"]
