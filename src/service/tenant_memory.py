"""TenantMemory: the in-process MemoryContextPort a host chat service uses, scoped to one tenant."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any
from uuid import UUID

from memlane.domain.errors import InvalidMemory
from memlane.domain.facts import (
    USER,
    Fact,
    FactFilter,
    FactPatch,
    FactType,
    NewFact,
    Profile,
    TimeSpan,
    TopicSummary,
)
from memlane.domain.memories import AddedMessages, Consolidation, Message
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
from memlane.ports.context import MemoryContextPort
from memlane.service.facts import TopicView
from memlane.service.memories import Consolidated, check_identifier
from memlane.service.memory_service import MemoryService
from memlane.service.security import AuditService, HistoryEvent
from memlane.service.tenant_inputs import (
    as_fact_type,
    as_memory_type,
    as_message,
    as_time_span,
    context_options,
)


class TenantMemory(MemoryContextPort):
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
        self, *, user_id: str, query: str, limit: int = 10, min_similarity: float | None = None,
        current: bool | None = None,
    ) -> list[ScoredMemory]:
        return await self._service.search(
            self.owner(user_id), query, limit=limit, min_similarity=min_similarity,
            current=current,
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

    # -- facts, the profile and topics ------------------------------------------------
    async def facts(
        self,
        *,
        user_id: str,
        fact_type: str | FactType | None = None,
        current: bool | None = True,
        cursor: Cursor | None = None,
        limit: int = 50,
    ) -> Page[Fact]:
        """The user's facts, newest first: current ones (True), ended ones (False) or all."""
        filters = FactFilter(as_fact_type(fact_type), current)
        return await self._service.facts.list(self.owner(user_id), filters, cursor, limit)

    async def state_fact(
        self,
        *,
        user_id: str,
        relation: str,
        object: str,
        subject: str = USER,
        fact_type: str | FactType | None = None,
        time_span: str | TimeSpan | None = None,
        confidence: float = 1.0,
        user_fact_score: float | None = None,
    ) -> Fact:
        """Store a fact the user states directly; a functional relation supersedes."""
        new = NewFact(
            relation=relation, object=object, subject=subject,
            fact_type=as_fact_type(fact_type), time_span=as_time_span(time_span),
            confidence=confidence, user_fact_score=user_fact_score,
        )
        return await self._service.facts.state(self.owner(user_id), new)

    async def update_fact(
        self,
        *,
        user_id: str,
        fact_id: UUID,
        object: str | None = None,
        fact_type: str | FactType | None = None,
        time_span: str | TimeSpan | None = None,
        user_fact_score: float | None = None,
        clear_score: bool = False,
    ) -> Fact:
        """Edit object, type, time span or the score (`clear_score` removes it)."""
        patch = FactPatch(
            object=object, fact_type=as_fact_type(fact_type), time_span=as_time_span(time_span),
            user_fact_score=user_fact_score, clear_score=clear_score,
        )
        return await self._service.facts.update(self.owner(user_id), fact_id, patch)

    async def delete_fact(self, *, user_id: str, fact_id: UUID) -> None:
        """Delete a fact; one it had superseded holds again."""
        await self._service.facts.delete(self.owner(user_id), fact_id)

    async def profile(self, *, user_id: str) -> Profile:
        """The "do not forget" profile: core and secondary facts by type."""
        return await self._service.facts.profile(self.owner(user_id))

    async def topics(self, *, user_id: str, limit: int = 100) -> list[TopicSummary]:
        """The user's topics (tags, imported chats' titles), most recently active first, at
        most `limit` (up to 500)."""
        return await self._service.topics.topics(self.owner(user_id), limit)

    async def topic(self, *, user_id: str, topic: str) -> TopicView:
        """One topic: current facts, commitments as next actions, open questions."""
        return await self._service.topics.topic(self.owner(user_id), topic)

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
