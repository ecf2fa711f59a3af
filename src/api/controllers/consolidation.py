"""Consolidating memories (/v1/memories/consolidate): one new memory in place of several."""

from __future__ import annotations

from litestar import Controller, post
from litestar.di import NamedDependency
from litestar.params import JSONBody
from litestar.status_codes import HTTP_201_CREATED

from memlane.api.controllers.memory_graph import edge_out
from memlane.api.deps import MEMORIES, Memories, owner_from_body
from memlane.api.graph_schemas import ConsolidatedOut, ConsolidateIn
from memlane.api.mapping import memory_out
from memlane.api.params import ERRORS, WRITE
from memlane.domain.memories import Consolidation
from memlane.domain.model import Owner


class ConsolidationController(Controller):
    path = "/v1/memories/consolidate"
    tags = ["graph"]
    dependencies = {"memories": MEMORIES, "owner": owner_from_body(ConsolidateIn)}

    @post(operation_id="consolidateMemories", opt=WRITE, raises=ERRORS,
          status_code=HTTP_201_CREATED)
    async def consolidate(
        self, data: JSONBody[ConsolidateIn], memories: Memories, owner: NamedDependency[Owner],
    ) -> ConsolidatedOut:
        """Condense the sources into one new memory, in one transaction: linked to each by
        `narrative` and `supersedes` edges (the sources stay as history, with valid_until),
        or with `delete_sources` the sources deleted. Each source and the new memory record
        a `consolidated` event. 404 when a source is not the user's; 422 for fewer than two
        distinct sources."""
        done = await memories.consolidate(owner, Consolidation(
            tuple(data.sources), data.content, data.memory_type, data.delete_sources))
        return ConsolidatedOut(
            memory=memory_out(done.memory), sources=[s.id for s in done.sources],
            sources_deleted=done.sources_deleted, edges=[edge_out(e) for e in done.edges],
        )
