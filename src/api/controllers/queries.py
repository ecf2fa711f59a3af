"""Reading across memories: semantic search, prompt context, stats, NDJSON export."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

import msgspec
from litestar import Controller, get, post
from litestar.di import NamedDependency
from litestar.params import JSONBody, Parameter
from litestar.response import Stream
from litestar.status_codes import HTTP_200_OK

from memlane.api.config import ApiConfig
from memlane.api.controllers.common import (
    READ_ERRORS,
    USER_ID_DOC,
    acting_owner,
    bounded_limit,
)
from memlane.api.deps import ApiServices
from memlane.api.mapping import context_out, search_hit_out, stats_out
from memlane.api.schemas import ContextIn, ContextOut, SearchOut, StatsOut
from memlane.domain.auth import Principal, Scope
from memlane.domain.model import Memory
from memlane.domain.portable import memory_to_record

UserParam = Annotated[str | None, Parameter(description=USER_ID_DOC, max_length=200)]
READ = {"scope": Scope.READ.value}
NDJSON = "application/x-ndjson"


class SearchController(Controller):
    """Semantic search, stats and export over one user's memories."""

    path = "/v1/memories"
    tags = ["memories"]

    @get("/search", operation_id="searchMemories", opt=READ, raises=READ_ERRORS)
    async def search(
        self,
        services: NamedDependency[ApiServices],
        principal: NamedDependency[Principal],
        config: NamedDependency[ApiConfig],
        q: Annotated[str, Parameter(min_length=1, max_length=4096, description="Query text.")],
        limit: Annotated[int | None, Parameter(description="Results, 1..100 (default 10).")]
        = None,
        min_similarity: Annotated[float | None, Parameter(ge=-1.0, le=1.0)] = None,
        user_id: UserParam = None,
    ) -> SearchOut:
        """Memories most similar to `q`, with cosine similarity and combined relevance."""
        owner = acting_owner(principal, user_id, config)
        size = bounded_limit(limit, 10, config.max_search_limit)
        hits = await services.service.search(owner, q, limit=size, min_similarity=min_similarity)
        return SearchOut(results=[search_hit_out(h) for h in hits])

    @get("/stats", operation_id="memoryStats", opt=READ, raises=READ_ERRORS)
    async def stats(
        self,
        services: NamedDependency[ApiServices],
        principal: NamedDependency[Principal],
        config: NamedDependency[ApiConfig],
        user_id: UserParam = None,
    ) -> StatsOut:
        """Total, per-type counts, how many have embeddings, and average current importance.

        An `admin` key that names no user gets the whole installation's totals."""
        if principal.is_admin and user_id is None and principal.user_id is None:
            return stats_out(await services.service.stats(None))
        owner = acting_owner(principal, user_id, config)
        return stats_out(await services.service.stats(owner))

    @get(
        "/export",
        operation_id="exportMemories",
        opt=READ,
        raises=READ_ERRORS,
        media_type=NDJSON,
        response_description="One JSON object per line (memlane's portable export form).",
    )
    async def export(
        self,
        services: NamedDependency[ApiServices],
        principal: NamedDependency[Principal],
        config: NamedDependency[ApiConfig],
        user_id: UserParam = None,
    ) -> Stream:
        """All of a user's memories, oldest first, decrypted, streamed as NDJSON."""
        owner = acting_owner(principal, user_id, config)
        memories = aiter(services.service.export(owner))
        # Fetch the first row before answering, so a database failure is a proper 503
        # instead of a 200 whose body breaks off.
        first: Memory | None = await anext(memories, None)
        return Stream(_ndjson(first, memories), media_type=NDJSON, status_code=HTTP_200_OK)


async def _ndjson(first: Memory | None, rest: AsyncIterator[Memory]) -> AsyncIterator[bytes]:
    if first is None:
        return
    yield msgspec.json.encode(memory_to_record(first)) + b"\n"
    async for memory in rest:
        yield msgspec.json.encode(memory_to_record(memory)) + b"\n"


class ContextController(Controller):
    """MemoryContextPort over HTTP: the prompt context for a query."""

    path = "/v1/context"
    tags = ["context"]

    @post(
        "/", operation_id="promptContext", opt=READ, raises=READ_ERRORS, status_code=HTTP_200_OK
    )
    async def context(
        self,
        data: JSONBody[ContextIn],
        services: NamedDependency[ApiServices],
        principal: NamedDependency[Principal],
        config: NamedDependency[ApiConfig],
    ) -> ContextOut:
        """The best memories for `query` (type-priority order) and the rendered prompt block.

        Returned memories count as accessed (their decay clock restarts)."""
        owner = acting_owner(principal, data.user_id, config)
        limit = bounded_limit(data.limit, 0, config.max_context_limit) if data.limit else None
        return context_out(await services.service.prompt_context(owner, data.query, limit))
