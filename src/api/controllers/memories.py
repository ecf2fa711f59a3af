"""The memories of a user (/v1/memories): store, learn, list, search, read, edit, delete,
export, stats and erasure. Decay and cleanup are jobs with their own paths (maintenance.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Controller, Response, delete, get, patch, post
from litestar.di import NamedDependency
from litestar.exceptions import ValidationException
from litestar.openapi import ResponseSpec
from litestar.params import FromPath, JSONBody, Parameter, QueryParameter
from litestar.response import Stream
from litestar.status_codes import HTTP_200_OK, HTTP_201_CREATED

from memlane.api.config import MAX_SEARCH_LIMIT, ApiConfig
from memlane.api.cursor import decode_cursor, encode_cursor
from memlane.api.deps import MEMORIES, OWNER, REACH, Memories, Reached, owner_from_body
from memlane.api.mapping import (
    memory_out,
    remember_out,
    search_hit_out,
    stats_out,
    to_new_memory,
    to_patch,
)
from memlane.api.metrics import ApiMetrics
from memlane.api.openapi import MEMORY_UNREADABLE
from memlane.api.params import (
    CURRENT,
    ERRORS,
    READ,
    WRITE,
    CurrentParam,
    CursorParam,
    PageLimitParam,
    TierParam,
    aliased,
    bounded_limit,
)
from memlane.api.schemas import (
    BatchIn,
    BatchOut,
    DeletedOut,
    LearnIn,
    LearnOut,
    MemoryIn,
    MemoryOut,
    PageOut,
    PatchIn,
    RememberOut,
    SearchOut,
    StatsOut,
)
from memlane.domain.detail import Tier
from memlane.domain.model import MemoryFilter, MemoryType, Owner
from memlane.service.memories import check_content

NDJSON = "application/x-ndjson"


class MemoriesController(Controller):
    """Memories of one user, encrypted at rest; the acting owner comes from the key and
    `user_id` (query, or the body of a write)."""

    path = "/v1/memories"
    tags = ["memories"]
    # The service is injected as `service`, not `memories`: Litestar files a validation error
    # of a body field that shares a dependency's name (BatchIn.memories) as a 500.
    dependencies = {"service": MEMORIES, "owner": OWNER}

    @post(
        "/",
        operation_id="storeMemory",
        opt=WRITE,
        status_code=HTTP_201_CREATED,
        raises=ERRORS,
        responses={200: ResponseSpec(RememberOut, description="Merged into a near-duplicate")},
        dependencies={"owner": owner_from_body(MemoryIn)},
    )
    async def store(
        self,
        data: JSONBody[MemoryIn],
        service: Memories,
        owner: NamedDependency[Owner],
        metrics: NamedDependency[ApiMetrics],
    ) -> Response[RememberOut]:
        """Store a memory: 201 when new, 200 when merged into a near-duplicate of the same user."""
        result = await service.remember(owner, to_new_memory(data))
        metrics.stored(result.merged)
        return Response(
            remember_out(result), status_code=HTTP_200_OK if result.merged else HTTP_201_CREATED
        )

    @post(
        "/batch",
        operation_id="storeMemories",
        opt=WRITE,
        status_code=HTTP_201_CREATED,
        raises=ERRORS,
        responses={200: ResponseSpec(BatchOut, description="At least one item merged")},
        dependencies={"owner": owner_from_body(BatchIn)},
    )
    async def store_batch(
        self,
        data: JSONBody[BatchIn],
        service: Memories,
        owner: NamedDependency[Owner],
        config: NamedDependency[ApiConfig],
        metrics: NamedDependency[ApiMetrics],
    ) -> Response[BatchOut]:
        """Store several memories of one user with one batched embedding call, in order:
        201 when all are new, 200 when any merged into a near-duplicate."""
        if len(data.memories) > config.max_batch_items:
            raise ValidationException(f"at most {config.max_batch_items} memories per batch")
        results = await service.remember_many(owner, [to_new_memory(m) for m in data.memories])
        for result in results:
            metrics.stored(result.merged)
        merged = any(r.merged for r in results)
        return Response(
            BatchOut(results=[remember_out(r) for r in results]),
            status_code=HTTP_200_OK if merged else HTTP_201_CREATED,
        )

    @post(
        "/learn",
        operation_id="learnFromExchange",
        opt=WRITE,
        status_code=HTTP_201_CREATED,
        raises=ERRORS,
        responses={200: ResponseSpec(LearnOut, description="Merged, or skipped as too short")},
        dependencies={"owner": owner_from_body(LearnIn)},
    )
    async def learn(
        self,
        data: JSONBody[LearnIn],
        service: Memories,
        owner: NamedDependency[Owner],
        metrics: NamedDependency[ApiMetrics],
    ) -> Response[LearnOut]:
        """Learn from a question/answer pair; type and importance come from the heuristics.

        201 when stored, 200 when merged or skipped (either side under 20 characters)."""
        for side in (data.question, data.answer):
            check_content(side, service.policy)  # a blank or oversized side is a 422
        result = await service.learn(
            owner,
            data.question,
            data.answer,
            conversation_id=data.conversation_id,
            tags=tuple(data.tags),
            metadata=data.metadata,
        )
        if result is None:
            return Response(LearnOut(skipped=True), status_code=HTTP_200_OK)
        metrics.stored(result.merged)
        body = LearnOut(skipped=False, merged=result.merged, memory=memory_out(result.memory))
        return Response(body, status_code=HTTP_200_OK if result.merged else HTTP_201_CREATED)

    @get("/", operation_id="listMemories", opt=READ, raises=ERRORS)
    async def list_memories(
        self,
        service: Memories,
        owner: NamedDependency[Owner],
        config: NamedDependency[ApiConfig],
        memory_type: Annotated[
            MemoryType | None, Parameter(description="Only this memory type.")
        ] = None,
        type_alias: Annotated[MemoryType | None, QueryParameter(
            name="type", description="Deprecated: `memory_type` (removed in the next release)."
        )] = None,
        tag: Annotated[str | None, Parameter(description="Only memories with this tag.")] = None,
        conversation_id: Annotated[str | None, Parameter(max_length=200)] = None,
        min_importance: Annotated[
            float | None, Parameter(ge=0.0, le=1.0, schema_extra={"minimum": 0.0})
        ] = None,
        current: CurrentParam = "all",
        cursor: CursorParam = None,
        limit: PageLimitParam = None,
    ) -> PageOut:
        """List a user's memories, newest first, with keyset pagination (no skips, no repeats).
        `current=true` leaves out what something replaced, `false` shows only that."""
        size = bounded_limit(limit, config.default_page_limit, config.max_page_limit)
        chosen = aliased("memory_type", memory_type, "type", type_alias)
        filters = MemoryFilter(chosen, tag, conversation_id, min_importance, CURRENT[current])
        position = decode_cursor(cursor) if cursor else None
        page = await service.list(owner, filters, position, size)
        return PageOut(
            items=[memory_out(m) for m in page.items],
            next_cursor=encode_cursor(page.next_cursor) if page.next_cursor else None,
        )

    @get("/search", operation_id="searchMemories", opt=READ, raises=ERRORS)
    async def search(
        self,
        service: Memories,
        owner: NamedDependency[Owner],
        config: NamedDependency[ApiConfig],
        q: Annotated[str, Parameter(min_length=1, max_length=4096, description="Query text.")],
        limit: Annotated[
            int | None, Parameter(ge=1, le=MAX_SEARCH_LIMIT, description="Results (default 10).")
        ] = None,
        min_similarity: Annotated[float | None, Parameter(ge=-1.0, le=1.0)] = None,
        current: CurrentParam = "all",
        asked_at: Annotated[datetime | None, Parameter(description=(
            "When the question is asked (RFC 3339 with its offset; default now): the time "
            "its words point at, such as 'four weeks ago', is read against it."
        ))] = None,
    ) -> SearchOut:
        """Memories that match `q` (meaning and words), best first by `score`, with cosine
        similarity and combined relevance. A superseded memory carries `superseded_by` and
        ranks below what replaced it; `current=true` leaves it out."""
        if asked_at is not None and asked_at.tzinfo is None:
            raise ValidationException(
                "asked_at must carry its offset",
                extra=[{"key": "asked_at", "message": "a time zone offset is required"}],
            )
        size = bounded_limit(limit, 10, config.max_search_limit)
        hits = await service.search(owner, q, limit=size, min_similarity=min_similarity,
                                    current=CURRENT[current], asked_at=asked_at)
        return SearchOut(results=[search_hit_out(h) for h in hits])

    @get(
        "/stats",
        operation_id="memoryStats",
        opt=READ,
        raises=ERRORS,
        dependencies={"owner": REACH},
    )
    async def stats(self, service: Memories, owner: Reached) -> StatsOut:
        """Total, per-type counts, how many have embeddings, and average current importance.

        An `admin` key that names no user gets its tenant's totals, an `operator` key the
        whole installation's."""
        return stats_out(await service.stats(owner))

    @get(
        "/export",
        operation_id="exportMemories",
        opt=READ,
        raises=ERRORS,
        media_type=NDJSON,
        response_description="One JSON object per line (memlane's portable export form).",
    )
    async def export(self, service: Memories, owner: NamedDependency[Owner]) -> Stream:
        """All of a user's memories, oldest first, decrypted, streamed as NDJSON, each with
        its history; then the graph between them and the facts (each with its history)."""
        records = aiter(service.export_records(owner))
        # Fetch the first record before answering, so a database failure is a proper 503
        # instead of a 200 whose body breaks off.
        first: dict[str, Any] | None = await anext(records, None)
        return Stream(_ndjson(first, records), media_type=NDJSON, status_code=HTTP_200_OK)

    @get(
        "/{memory_id:uuid}", operation_id="getMemory", opt=READ, raises=ERRORS,
        responses={409: MEMORY_UNREADABLE},
    )
    async def get_memory(
        self, memory_id: FromPath[UUID], service: Memories, owner: NamedDependency[Owner],
        tier: TierParam = "L2",
    ) -> MemoryOut:
        """One memory, `content` at the tier asked for: L0 its abstract (<= 120
        characters), L1 its overview (<= 1,000), L2 the full text (the default). Another
        user's or tenant's memory is 404, never 403."""
        return memory_out(await service.get(owner, memory_id), Tier(tier))

    @patch(
        "/{memory_id:uuid}", operation_id="editMemory", opt=WRITE, raises=ERRORS,
        responses={409: MEMORY_UNREADABLE},
    )
    async def edit_memory(
        self,
        memory_id: FromPath[UUID],
        data: JSONBody[PatchIn],
        service: Memories,
        owner: NamedDependency[Owner],
    ) -> MemoryOut:
        """Edit content, type, importance, tags, pinned or metadata; omitted fields stay."""
        return memory_out(await service.update(owner, memory_id, to_patch(data)))

    @delete("/{memory_id:uuid}", operation_id="deleteMemory", opt=WRITE, raises=ERRORS)
    async def delete_memory(
        self, memory_id: FromPath[UUID], service: Memories, owner: NamedDependency[Owner]
    ) -> None:
        """Delete one memory (204); 404 if it is not the user's."""
        await service.delete(owner, memory_id)

    @delete(
        "/", operation_id="eraseUserMemories", opt=WRITE, raises=ERRORS, status_code=HTTP_200_OK
    )
    async def erase(
        self,
        service: Memories,
        owner: NamedDependency[Owner],
        confirm: Annotated[
            bool, Parameter(description="Must be true: erasure cannot be undone.")
        ] = False,
    ) -> DeletedOut:
        """Erase every memory of one user (right to erasure); needs `confirm=true`."""
        if not confirm:
            raise ValidationException(
                "erasing all memories needs confirm=true",
                extra=[{"key": "confirm", "message": "must be true"}],
            )
        return DeletedOut(deleted=await service.delete_all(owner))


async def _ndjson(
    first: dict[str, Any] | None, rest: AsyncIterator[dict[str, Any]]
) -> AsyncIterator[bytes]:
    if first is None:
        return
    yield msgspec.json.encode(first) + b"\n"
    async for record in rest:
        yield msgspec.json.encode(record) + b"\n"
