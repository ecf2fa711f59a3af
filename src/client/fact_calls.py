"""Facts, the "do not forget" profile and topics as Calls: /v1/facts, /v1/profile and
/v1/topics, named like the in-process TenantMemory's fact calls."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec

from memlane.domain.facts import USER, Fact, FactType, OpenQuestion, Profile, TimeSpan, TopicSummary

from . import wire
from .call import Call, body, nothing, query, segment, uuid_of
from .types import FactPage, HistoryEvent, TopicView

FACTS = "/v1/facts"
_CURRENT = {True: "true", False: "false", None: "all"}


class WireFact(msgspec.Struct, kw_only=True):
    """A fact as /v1/facts answers it (`current` is derived). A server of the release before
    says `type` only (the deprecated name of `fact_type`): either is read."""

    id: UUID
    subject: str
    relation: str
    object: str
    time_span: TimeSpan
    confidence: float
    valid_from: datetime
    created_at: datetime
    updated_at: datetime
    user_fact_score: float | None = None
    source_memory_id: UUID | None = None
    valid_until: datetime | None = None
    superseded_by: UUID | None = None
    source_time: datetime | None = None
    fact_type: FactType | None = None
    old_type: FactType | None = msgspec.field(default=None, name="type")

    def domain(self) -> Fact:
        fact_type = self.fact_type or self.old_type
        if fact_type is None:
            raise msgspec.ValidationError("a fact without fact_type")
        return Fact(
            id=self.id, subject=self.subject, relation=self.relation, object=self.object,
            fact_type=fact_type, time_span=self.time_span, confidence=self.confidence,
            valid_from=self.valid_from, created_at=self.created_at, updated_at=self.updated_at,
            user_fact_score=self.user_fact_score, source_memory_id=self.source_memory_id,
            valid_until=self.valid_until, superseded_by=self.superseded_by,
            source_time=self.source_time,
        )


class WireFactPage(msgspec.Struct):
    items: list[WireFact]
    next_cursor: str | None = None


class WireProfile(msgspec.Struct):
    core: list[WireFact]
    secondary: list[WireFact]


class WireTopics(msgspec.Struct):
    topics: list[TopicSummary]


class WireTopic(msgspec.Struct):
    topic: str
    count: int
    last_activity: datetime
    facts: list[WireFact]
    next_actions: list[WireFact]
    open_questions: tuple[OpenQuestion, ...]

    def view(self) -> TopicView:
        return TopicView(
            self.topic, self.count, self.last_activity, tuple(f.domain() for f in self.facts),
            tuple(f.domain() for f in self.next_actions), self.open_questions,
        )


def _fact(raw: bytes) -> Fact:
    return msgspec.json.decode(raw, type=WireFact).domain()


def _page(raw: bytes) -> FactPage:
    body = msgspec.json.decode(raw, type=WireFactPage)
    return FactPage(tuple(f.domain() for f in body.items), body.next_cursor)


def _profile(raw: bytes) -> Profile:
    body = msgspec.json.decode(raw, type=WireProfile)
    return Profile(tuple(f.domain() for f in body.core), tuple(f.domain() for f in body.secondary))


def _name(value: str | FactType | TimeSpan | None) -> str | None:
    return None if value is None else str(getattr(value, "value", value)).strip().lower()


def facts(
    *,
    user_id: str | None = None,
    fact_type: str | FactType | None = None,
    current: bool | None = True,
    cursor: str | None = None,
    limit: int = 50,
) -> Call[FactPage]:
    """The user's facts, newest first: current ones (True), ended ones (False) or all (None)."""
    params = query(user_id=user_id, fact_type=_name(fact_type), current=_CURRENT[current],
                   cursor=cursor, limit=limit)
    return Call("GET", FACTS, _page, params=params)


def state_fact(
    *,
    user_id: str | None = None,
    relation: str,
    object: str,
    subject: str = USER,
    fact_type: str | FactType | None = None,
    time_span: str | TimeSpan | None = None,
    confidence: float = 1.0,
    user_fact_score: float | None = None,
) -> Call[Fact]:
    """Store a fact the user states directly; a functional relation supersedes."""
    payload = body(relation=relation, object=object, subject=subject,
                   fact_type=_name(fact_type),
                   time_span=_name(time_span), confidence=confidence,
                   user_fact_score=user_fact_score, user_id=user_id)
    return Call("POST", FACTS, _fact, body=payload)


def get_fact(*, user_id: str | None = None, fact_id: UUID | str) -> Call[Fact]:
    """One fact; another user's is FactNotFound."""
    return Call("GET", f"{FACTS}/{uuid_of(fact_id)}", _fact, params=query(user_id=user_id))


def update_fact(
    *,
    user_id: str | None = None,
    fact_id: UUID | str,
    object: str | None = None,
    fact_type: str | FactType | None = None,
    time_span: str | TimeSpan | None = None,
    user_fact_score: float | None = None,
    clear_score: bool = False,
) -> Call[Fact]:
    """Edit object, type, time span or the score (`clear_score` removes it)."""
    fields: dict[str, Any] = {
        k: v for k, v in {"object": object, "fact_type": _name(fact_type),
                          "time_span": _name(time_span),
                          "user_fact_score": user_fact_score}.items() if v is not None
    }
    if clear_score:
        fields["user_fact_score"] = None  # null removes the score; left out keeps it
    return Call("PATCH", f"{FACTS}/{uuid_of(fact_id)}", _fact, params=query(user_id=user_id),
                body=msgspec.json.encode(fields))


def delete_fact(*, user_id: str | None = None, fact_id: UUID | str) -> Call[None]:
    """Delete a fact (a person's delete: one it had superseded holds again)."""
    return Call("DELETE", f"{FACTS}/{uuid_of(fact_id)}", nothing, params=query(user_id=user_id))


def fact_history(
    *, user_id: str | None = None, fact_id: UUID | str
) -> Call[list[HistoryEvent]]:
    """Every change of the fact, oldest first; FactNotFound when the owner has none."""
    return Call("GET", f"{FACTS}/{uuid_of(fact_id)}/history", wire.events,
                params=query(user_id=user_id))


def profile(*, user_id: str | None = None) -> Call[Profile]:
    """The "do not forget" profile: core and secondary facts by type."""
    return Call("GET", "/v1/profile", _profile, params=query(user_id=user_id))


def topics(*, user_id: str | None = None, limit: int = 100) -> Call[list[TopicSummary]]:
    """The user's topics (tags, imported chats' titles), most recently active first, at
    most `limit` (up to 500)."""
    return Call("GET", "/v1/topics", lambda raw: msgspec.json.decode(raw, type=WireTopics).topics,
                params=query(user_id=user_id, limit=limit))


def topic(*, user_id: str | None = None, topic: str) -> Call[TopicView]:
    """One topic (case-blind): current facts, commitments as next actions, open questions;
    TopicNotFound when no memory carries it."""
    return Call("GET", f"/v1/topics/{segment(topic)}",
                lambda raw: msgspec.json.decode(raw, type=WireTopic).view(),
                params=query(user_id=user_id))
