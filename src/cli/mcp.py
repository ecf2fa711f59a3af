"""`memlane mcp`: memlane's MCP server over stdio for one user."""

from __future__ import annotations

import click

from memlane.cli.common import run_async, tenant_option


@click.command("mcp", short_help="Serve the MCP tools over stdio for one user.")
@tenant_option
@click.option("--user", "user_id", required=True, help="The user the assistant acts for.")
@run_async
async def mcp(tenant: str, user_id: str) -> None:
    """Serve the MCP tools over stdin/stdout for a desktop assistant, acting for one user.

    Configure the assistant to start `memlane mcp --user <you>` (see docs/mcp.md). Nothing
    but the protocol is written to stdout; logs go to stderr."""
    from memlane.container import open_memlane
    from memlane.mcp_server import McpServices
    from memlane.mcp_server.stdio import serve_stdio

    if not user_id.strip():
        raise click.BadParameter("must not be blank", param_hint="--user")
    async with open_memlane() as memlane:
        services = McpServices(memlane.service, memlane.knowledge_graph, memlane.audit)
        await serve_stdio(services, tenant, user_id)
