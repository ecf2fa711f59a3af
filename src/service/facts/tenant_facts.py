"""TenantFacts: the in-process fact, profile and topic calls of TenantMemory, by `user_id`."""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar
from uuid import UUID

from memlane.domain.facts import (
    USER,
    Fact,
    FactFilter,
    FactPatch,
    FactType,
    InvalidFact,
    NewFact,
    Profile,
    TimeSpan,
    TopicSummary,
)
from memlane.domain.model import Cursor, Owner, Page
from memlane.service.facts.topics import TopicView
from memlane.service.memory_service import MemoryService

E = TypeVar("E", bound=StrEnum)


def _as_enum(kind: type[E], value: str | E | None, what: str) -> E | None:
    if value is None or isinstance(value, kind):
        return value
    try:
        return kind(value.strip().lower())
    except ValueError:
        allowed = ", ".join(v.value for v in kind)
        raise InvalidFact(f"unknown {what} {value!r}; use one of {allowed}") from None


def as_fact_type(value: str | FactType | None) -> FactType | None:
    """A FactType from its name or itself; InvalidFact names the allowed values."""
    return _as_enum(FactType, value, "fact type")


def as_time_span(value: str | TimeSpan | None) -> TimeSpan | None:
    """A TimeSpan from its name or itself; InvalidFact names the allowed values."""
    return _as_enum(TimeSpan, value, "time span")


class TenantFacts:
    """Mixed into TenantMemory: each call acts for `user_id` within its tenant."""

    _service: MemoryService

    def owner(self, user_id: str) -> Owner:
        raise NotImplementedError  # TenantMemory's

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
