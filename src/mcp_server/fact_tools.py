"""The fact tools: list_facts and profile, over the facts memlane reads from what it is told."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from memlane.api.cursor import BadCursor, decode_cursor, encode_cursor
from memlane.domain.facts import FactFilter, FactType
from memlane.domain.security import Scope
from memlane.mcp_server.caller import acting, tool_errors
from memlane.mcp_server.memory_tools import READS, UserId
from memlane.mcp_server.views import fact_view


def register_fact_tools(server: MCPServer) -> None:
    """Add list_facts and profile to `server`."""

    @server.tool(annotations=READS)
    async def list_facts(
        fact_type: Annotated[FactType | None, Field(description="Only facts of this type.")] = None,
        current: Annotated[
            bool | None,
            Field(description="true: facts that hold now; false: ended or replaced ones; "
                              "null: all."),
        ] = True,
        limit: Annotated[int, Field(ge=1, le=200)] = 50,
        cursor: Annotated[
            str | None, Field(description="next_cursor of the previous page, as received.")
        ] = None,
        user_id: UserId = None,
    ) -> dict[str, Any]:
        """The facts memlane keeps about the user (subject, relation, object, type, when
        they hold), newest first: read from what the user said, or stated directly. A fact
        replaced by a newer one (moved, changed jobs) is no longer current."""
        with tool_errors("list_facts"):
            owner, services = acting(Scope.READ, user_id)
            try:
                position = None if cursor is None else decode_cursor(cursor)
            except BadCursor as error:
                raise ToolError(str(error)) from None
            page = await services.memories.facts.list(
                owner, FactFilter(fact_type, current), position, limit
            )
            following = None if page.next_cursor is None else encode_cursor(page.next_cursor)
            return {"facts": [fact_view(f) for f in page.items], "next_cursor": following}

    @server.tool(annotations=READS)
    async def profile(user_id: UserId = None) -> dict[str, Any]:
        """The user's "do not forget" profile: the current facts that matter most, grouped
        by type (identity, commitment, constraint, preference, trait, event). `core` is what
        to keep in mind in every conversation; `secondary` is the rest worth knowing."""
        with tool_errors("profile"):
            owner, services = acting(Scope.READ, user_id)
            found = await services.memories.facts.profile(owner)
            return {"core": [fact_view(f) for f in found.core],
                    "secondary": [fact_view(f) for f in found.secondary]}
