"""Memories resource: store (one, batch, learned), list, get, edit, delete."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from litestar import Controller, Response, delete, get, patch, post
from litestar.di import NamedDependency
from litestar.exceptions import ValidationException
from litestar.params import FromPath, JSONBody, Parameter, QueryParameter
from litestar.status_codes import HTTP_200_OK, HTTP_201_CREATED

from memlane.api.config import ApiConfig
from memlane.api.controllers.common import (
    READ_ERRORS,
    USER_ID_DOC,
    WRITE_ERRORS,
    acting_owner,
    bounded_limit,
)
from memlane.api.cursor import decode_cursor, encode_cursor
from memlane.api.deps import ApiServices
from memlane.api.mapping import memory_out, remember_out, to_new_memory, to_patch
from memlane.api.metrics import ApiMetrics
from memlane.api.schemas import (
    BatchIn,
    BatchOut,
    LearnIn,
    LearnOut,
    MemoryIn,
    MemoryOut,
    PageOut,
    PatchIn,
    RememberOut,
)
from memlane.domain.auth import Principal, Scope
from memlane.domain.model import MemoryFilter, MemoryType

UserParam = Annotated[str | None, Parameter(description=USER_ID_DOC, max_length=200)]
READ = {"scope": Scope.READ.value}
WRITE = {"scope": Scope.WRITE.value}


class MemoriesController(Controller):
    """Memories of one user, encrypted at rest."""

    path = "/v1/memories"
    tags = ["memories"]

    @post(
        "/",
        operation_id="storeMemory",
        opt=WRITE,
        status_code=HTTP_201_CREATED,
        raises=WRITE_ERRORS,
    )
    async def store(
        self,
        data: JSONBody[MemoryIn],
        services: NamedDependency[ApiServices],
        principal: NamedDependency[Principal],
        config: NamedDependency[ApiConfig],
        metrics: NamedDependency[ApiMetrics],
    ) -> Response[RememberOut]:
        """Store a memory: 201 when new, 200 when merged into a near-duplicate of the same user."""
        owner = acting_owner(principal, data.user_id, config)
        result = await services.service.remember(
            owner, to_new_memory(data, config.max_content_bytes)
        )
        metrics.stored(result.merged)
        return Response(
            remember_out(result), status_code=HTTP_200_OK if result.merged else HTTP_201_CREATED
        )

    @post(
        "/batch",
        operation_id="storeMemories",
        opt=WRITE,
        status_code=HTTP_200_OK,
        raises=WRITE_ERRORS,
    )
    async def store_batch(
        self,
        data: JSONBody[BatchIn],
        services: NamedDependency[ApiServices],
        principal: NamedDependency[Principal],
        config: NamedDependency[ApiConfig],
        metrics: NamedDependency[ApiMetrics],
    ) -> BatchOut:
        """Store several memories of one user with one batched embedding call, in order."""
        owner = acting_owner(principal, data.user_id, config)
        if len(data.memories) > config.max_batch_items:
            raise ValidationException(f"at most {config.max_batch_items} memories per batch")
        items = [to_new_memory(item, config.max_content_bytes) for item in data.memories]
        results = await services.service.remember_many(owner, items)
        for result in results:
            metrics.stored(result.merged)
        return BatchOut(results=[remember_out(r) for r in results])

    @post(
        "/learn",
        operation_id="learnFromExchange",
        opt=WRITE,
        status_code=HTTP_201_CREATED,
        raises=WRITE_ERRORS,
    )
    async def learn(
        self,
        data: JSONBody[LearnIn],
        services: NamedDependency[ApiServices],
        principal: NamedDependency[Principal],
        config: NamedDependency[ApiConfig],
        metrics: NamedDependency[ApiMetrics],
    ) -> Response[LearnOut]:
        """Learn from a question/answer pair; type and importance come from the heuristics.

        201 when stored, 200 when merged or skipped (either side under 20 characters)."""
        owner = acting_owner(principal, data.user_id, config)
        for text in (data.question, data.answer):
            to_new_memory(MemoryIn(content=text), config.max_content_bytes)
        result = await services.service.learn(
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

    @get("/", operation_id="listMemories", opt=READ, raises=READ_ERRORS)
    async def list_memories(
        self,
        services: NamedDependency[ApiServices],
        principal: NamedDependency[Principal],
        config: NamedDependency[ApiConfig],
        user_id: UserParam = None,
        memory_type: Annotated[
            MemoryType | None, QueryParameter(name="type", description="Only this memory type.")
        ] = None,
        tag: Annotated[str | None, Parameter(description="Only memories with this tag.")] = None,
        conversation_id: Annotated[str | None, Parameter(max_length=200)] = None,
        min_importance: Annotated[float | None, Parameter(ge=0.0, le=1.0)] = None,
        cursor: Annotated[
            str | None, Parameter(description="`next_cursor` of the previous page.")
        ] = None,
        limit: Annotated[int | None, Parameter(description="Page size, 1..200 (default 50).")]
        = None,
    ) -> PageOut:
        """List a user's memories, newest first, with keyset pagination (no skips, no repeats)."""
        owner = acting_owner(principal, user_id, config)
        size = bounded_limit(limit, config.default_page_limit, config.max_page_limit)
        position = decode_cursor(cursor) if cursor else None
        filters = MemoryFilter(
            memory_type=memory_type,
            tag=tag,
            conversation_id=conversation_id,
            min_importance=min_importance,
        )
        page = await services.service.list(owner, filters, position, size)
        return PageOut(
            items=[memory_out(m) for m in page.items],
            next_cursor=encode_cursor(page.next_cursor) if page.next_cursor else None,
        )

    @get("/{memory_id:uuid}", operation_id="getMemory", opt=READ, raises=READ_ERRORS)
    async def get_memory(
        self,
        memory_id: FromPath[UUID],
        services: NamedDependency[ApiServices],
        principal: NamedDependency[Principal],
        config: NamedDependency[ApiConfig],
        user_id: UserParam = None,
    ) -> MemoryOut:
        """One memory; another user's or tenant's memory is 404, never 403."""
        owner = acting_owner(principal, user_id, config)
        return memory_out(await services.service.get(owner, memory_id))

    @patch("/{memory_id:uuid}", operation_id="editMemory", opt=WRITE, raises=WRITE_ERRORS)
    async def edit_memory(
        self,
        memory_id: FromPath[UUID],
        data: JSONBody[PatchIn],
        services: NamedDependency[ApiServices],
        principal: NamedDependency[Principal],
        config: NamedDependency[ApiConfig],
        user_id: UserParam = None,
    ) -> MemoryOut:
        """Edit content, type, importance, tags, pinned or metadata; omitted fields stay."""
        owner = acting_owner(principal, user_id, config)
        patch_value = to_patch(data, config.max_content_bytes)
        return memory_out(await services.service.update(owner, memory_id, patch_value))

    @delete("/{memory_id:uuid}", operation_id="deleteMemory", opt=WRITE, raises=WRITE_ERRORS)
    async def delete_memory(
        self,
        memory_id: FromPath[UUID],
        services: NamedDependency[ApiServices],
        principal: NamedDependency[Principal],
        config: NamedDependency[ApiConfig],
        user_id: UserParam = None,
    ) -> None:
        """Delete one memory (204); 404 if it is not the user's."""
        owner = acting_owner(principal, user_id, config)
        await services.service.delete(owner, memory_id)
