"""TenantMemory: the in-process MemoryContextPort a host chat service uses, scoped to one tenant."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from memlane.domain.errors import InvalidMemory
from memlane.domain.memories import AddedMessages, Consolidation, Message, Role
from memlane.domain.model import (
    DEFAULT_TENANT,
    Cursor,
    Memory,
    MemoryContext,
    MemoryFilter,
    MemoryPatch,
    MemoryStats,
    MemoryType,
    NewMemory,
    Owner,
    Page,
    PromptContext,
    RememberResult,
    ScoredMemory,
)
from memlane.domain.retrieval import ContextOptions, ContextOrder
from memlane.ports.context import MemoryContextPort
from memlane.service.facts import TenantFacts
from memlane.service.memories import Consolidated, check_identifier
from memlane.service.memory_service import MemoryService
from memlane.service.security import AuditService, HistoryEvent


def as_memory_type(value: str | MemoryType | None) -> MemoryType | None:
    """A MemoryType from its name ("fact") or itself; InvalidMemory names the allowed values."""
    if value is None or isinstance(value, MemoryType):
        return value
    try:
        return MemoryType(value.strip().lower())
    except ValueError:
        allowed = ", ".join(t.value for t in MemoryType)
        raise InvalidMemory(f"unknown memory type {value!r}; use one of {allowed}") from None


def as_message(value: Message | Mapping[str, Any]) -> Message:
    """A Message from itself or a mapping; InvalidMemory names what is wrong."""
    if isinstance(value, Message):
        return value
    if not isinstance(value, Mapping):
        raise InvalidMemory("a message is a mapping with role and content")
    unknown = set(value) - {"role", "content", "created_at", "name"}
    if unknown:
        raise InvalidMemory(f"unknown message fields: {', '.join(sorted(unknown))}")
    try:
        role = Role(str(value.get("role", "")).strip().lower())
    except ValueError:
        allowed = ", ".join(r.value for r in Role)
        raise InvalidMemory(f"unknown role {value.get('role')!r}; use one of {allowed}") from None
    content, created_at, name = value.get("content"), value.get("created_at"), value.get("name")
    if not isinstance(content, str):
        raise InvalidMemory("a message's content must be a string")
    if created_at is not None and not isinstance(created_at, datetime):
        raise InvalidMemory("a message's created_at must be a datetime")
    if name is not None and not isinstance(name, str):
        raise InvalidMemory("a message's name must be a string")
    return Message(role, content, created_at, name)


def context_options(
    *,
    conversation_id: str | None = None,
    include_current: bool = False,
    active_context: Sequence[str] = (),
    order: str | ContextOrder = ContextOrder.PRIORITY,
    include_superseded: bool = False,
    include_profile: bool = True,
) -> ContextOptions:
    """ContextOptions from keyword arguments; InvalidMemory names what is wrong."""
    if isinstance(active_context, str):
        raise InvalidMemory("active_context is a list of texts, not one text")
    try:
        return ContextOptions(
            conversation_id=conversation_id, include_current=include_current,
            active_context=tuple(active_context), order=ContextOrder(order),
            include_superseded=include_superseded, include_profile=include_profile,
        )
    except ValueError as error:
        raise InvalidMemory(str(error)) from None


class TenantMemory(TenantFacts, MemoryContextPort):
    """Everything a host service needs, addressed by `user_id` within one tenant."""

    def __init__(
        self, service: MemoryService, tenant: str = DEFAULT_TENANT,
        audit: AuditService | None = None,
    ) -> None:
        self._service = service
        self._audit = audit
        self.tenant = tenant

    def owner(self, user_id: str) -> Owner:
        if not user_id or not user_id.strip():
            raise InvalidMemory("user_id must not be empty")
        check_identifier("user_id", user_id)
        return Owner(self.tenant, user_id)

    # -- MemoryContextPort -----------------------------------------------------------------
    async def retrieve_context(
        self, user_id: str, query: str, limit: int | None = None, **options: Any
    ) -> list[MemoryContext]:
        """`options`: conversation_id, include_current, active_context, order ("priority" or
        "timeline"), include_superseded, include_profile (see ContextOptions)."""
        return await self._service.retrieve_context(
            self.owner(user_id), query, limit, context_options(**options)
        )

    async def prompt_context(
        self, user_id: str, query: str, limit: int | None = None, **options: Any
    ) -> PromptContext:
        return await self._service.prompt_context(
            self.owner(user_id), query, limit, context_options(**options)
        )

    # -- conveniences ----------------------------------------------------------------------
    async def remember(
        self,
        *,
        user_id: str,
        content: str,
        memory_type: str | MemoryType | None = None,
        importance: float | None = None,
        conversation_id: str | None = None,
        tags: Sequence[str] = (),
        metadata: Mapping[str, Any] | None = None,
        pinned: bool = False,
    ) -> Memory:
        """Store (or merge) a memory and return it as stored."""
        new = NewMemory(
            content=content,
            memory_type=as_memory_type(memory_type),
            importance=importance,
            conversation_id=conversation_id,
            tags=tuple(tags),
            metadata=dict(metadata or {}),
            pinned=pinned,
        )
        return (await self._service.remember(self.owner(user_id), new)).memory

    async def add_messages(
        self,
        *,
        user_id: str,
        conversation_id: str,
        messages: Sequence[Message | Mapping[str, Any]],
    ) -> AddedMessages:
        """Store a conversation's messages ({"role", "content", "created_at"?, "name"?} or
        Message): each user message with the reply after it becomes one memory, chained."""
        return await self._service.add_messages(
            self.owner(user_id), conversation_id, [as_message(m) for m in messages]
        )

    async def learn(
        self,
        *,
        user_id: str,
        question: str,
        answer: str,
        conversation_id: str | None = None,
        tags: Sequence[str] = (),
        metadata: Mapping[str, Any] | None = None,
    ) -> RememberResult | None:
        """Learn from a question/answer pair; None when it is too short to keep."""
        return await self._service.learn(
            self.owner(user_id), question, answer,
            conversation_id=conversation_id, tags=tags, metadata=metadata,
        )

    async def search(
        self, *, user_id: str, query: str, limit: int = 10, min_similarity: float | None = None
    ) -> list[ScoredMemory]:
        return await self._service.search(
            self.owner(user_id), query, limit=limit, min_similarity=min_similarity
        )

    async def get(self, *, user_id: str, memory_id: UUID) -> Memory:
        return await self._service.get(self.owner(user_id), memory_id)

    async def update(
        self,
        *,
        user_id: str,
        memory_id: UUID,
        content: str | None = None,
        memory_type: str | MemoryType | None = None,
        importance: float | None = None,
        tags: Sequence[str] | None = None,
        pinned: bool | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Memory:
        patch = MemoryPatch(
            content=content,
            memory_type=as_memory_type(memory_type),
            importance=importance,
            tags=None if tags is None else tuple(tags),
            pinned=pinned,
            metadata=metadata,
        )
        return await self._service.update(self.owner(user_id), memory_id, patch)

    async def delete(self, *, user_id: str, memory_id: UUID) -> None:
        await self._service.delete(self.owner(user_id), memory_id)

    async def delete_all(self, *, user_id: str) -> int:
        return await self._service.delete_all(self.owner(user_id))

    async def consolidate(
        self,
        *,
        user_id: str,
        sources: Sequence[UUID],
        content: str | None = None,
        memory_type: str | MemoryType | None = None,
        delete_sources: bool = False,
    ) -> Consolidated:
        """One new memory in place of the sources (POST /v1/memories/consolidate)."""
        request = Consolidation(tuple(sources), content, as_memory_type(memory_type),
                                delete_sources)
        return await self._service.consolidate(self.owner(user_id), request)

    async def history(self, *, user_id: str, memory_id: UUID) -> list[HistoryEvent]:
        """What happened to the memory, oldest first, deleted or not (MemoryNotFound when
        the user has neither it nor its history)."""
        if self._audit is None:
            raise InvalidMemory("this memlane keeps no audit trail")
        return await self._audit.memory_history(self.owner(user_id), memory_id)

    async def export(self, *, user_id: str) -> AsyncIterator[Memory]:
        async for memory in self._service.export(self.owner(user_id)):
            yield memory

    async def stats(self, *, user_id: str) -> MemoryStats:
        return await self._service.stats(self.owner(user_id))

    # Last: inside the class body this name shadows the builtin `list` in later annotations.
    async def list(
        self,
        *,
        user_id: str,
        filters: MemoryFilter | None = None,
        cursor: Cursor | None = None,
        limit: int = 50,
    ) -> Page[Memory]:
        owner = self.owner(user_id)
        return await self._service.list(owner, filters or MemoryFilter(), cursor, limit)
