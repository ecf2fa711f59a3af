"""Prompt context (/v1/context): MemoryContextPort over HTTP."""

from __future__ import annotations

from litestar import Controller, post
from litestar.di import NamedDependency
from litestar.params import JSONBody
from litestar.status_codes import HTTP_200_OK

from memlane.api.config import ApiConfig
from memlane.api.deps import MEMORIES, Memories, owner_from_body
from memlane.api.mapping import context_out, memory_out
from memlane.api.params import ERRORS, READ, bounded_limit
from memlane.api.schemas import ContextIn, ContextOut, ExpandedOut, ExpandIn
from memlane.domain.detail import Tier
from memlane.domain.model import Owner
from memlane.domain.retrieval import ContextOptions, ContextOrder


class ContextController(Controller):
    """The prompt context for a query: chosen memories and the rendered block."""

    path = "/v1/context"
    tags = ["context"]
    dependencies = {"memories": MEMORIES, "owner": owner_from_body(ContextIn)}

    @post("/", operation_id="promptContext", opt=READ, raises=ERRORS, status_code=HTTP_200_OK)
    async def context(
        self,
        data: JSONBody[ContextIn],
        memories: Memories,
        owner: NamedDependency[Owner],
        config: NamedDependency[ApiConfig],
    ) -> ContextOut:
        """The best memories for `query` (type-priority order) and the rendered prompt block.

        Returned memories count as accessed (their decay clock restarts)."""
        limit = bounded_limit(data.limit, 0, config.max_context_limit) if data.limit else None
        options = ContextOptions(
            conversation_id=data.conversation_id, include_current=data.include_current,
            active_context=tuple(data.active_context), order=ContextOrder(data.order),
            include_superseded=data.include_superseded, include_profile=data.include_profile,
            token_budget=data.token_budget, asked_at=data.asked_at,
        )
        return context_out(await memories.prompt_context(owner, data.query, limit, options))


class ExpandController(Controller):
    """Progressive disclosure: memories a context showed in brief, at a deeper tier."""

    path = "/v1/context/expand"
    tags = ["context"]
    dependencies = {"memories": MEMORIES, "owner": owner_from_body(ExpandIn)}

    @post("/", operation_id="expandContext", opt=READ, raises=ERRORS, status_code=HTTP_200_OK)
    async def expand(
        self, data: JSONBody[ExpandIn], memories: Memories, owner: NamedDependency[Owner],
    ) -> ExpandedOut:
        """The memories asked for with `content` at `tier` (L2 by default), in the order
        asked; one that is not the user's is left out. Each counts as accessed (its decay
        clock restarts), as a context's memories do."""
        tier = Tier(data.tier)
        found = await memories.expand(owner, data.memory_ids)
        return ExpandedOut(memories=[memory_out(m, tier) for m in found])
