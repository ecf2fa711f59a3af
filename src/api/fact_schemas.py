"""Request and response bodies of the fact, profile and topic routes, with their mappings."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from uuid import UUID

import msgspec
from msgspec import Meta

from memlane.api.params import aliased
from memlane.api.schemas import ZERO_MINIMUM, UserId
from memlane.domain.facts import (
    MAX_FACT_CHARS,
    MAX_USER_FACT_SCORE,
    USER,
    Fact,
    FactPatch,
    FactType,
    NewFact,
    Profile,
    TimeSpan,
    TopicSummary,
)
from memlane.service.facts import TopicView

FactText = Annotated[str, Meta(min_length=1, max_length=MAX_FACT_CHARS)]
Relation = Annotated[str, Meta(pattern=r"^[a-z][a-z_]{0,39}$")]
Score = Annotated[float, Meta(ge=0.0, le=MAX_USER_FACT_SCORE, extra_json_schema=ZERO_MINIMUM)]
Confidence = Annotated[float, Meta(ge=0.0, le=1.0, extra_json_schema=ZERO_MINIMUM)]
# `type` was the REST name of `fact_type` (MCP, the client and exports say fact_type): read
# and written for one more release, marked deprecated in the OpenAPI document (CHANGELOG.md).
OLD_TYPE_DOC = "Deprecated: the old name of `fact_type`, removed in the next release."
OldType = Annotated[FactType | None, Meta(
    description=OLD_TYPE_DOC, extra_json_schema={"extra": {"deprecated": True}})]
# Out, a string of the enum's values: as the enum itself, the flag would land on the shared
# FactType schema and mark fact_type deprecated too (Litestar sets it on the referenced schema).
OldTypeOut = Annotated[str, Meta(description=OLD_TYPE_DOC, extra_json_schema={"extra": {
    "deprecated": True, "enum": [t.value for t in FactType]}})]


class FactIn(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A fact stated directly. `fact_type` follows from a known relation when left out; a
    fact of a functional relation (name, lives_in, works_at, ...) supersedes the current one."""

    relation: Relation
    object: FactText
    subject: FactText = USER
    fact_type: FactType | None = None
    old_type: OldType = msgspec.field(default=None, name="type")
    time_span: TimeSpan | None = None
    confidence: Confidence = 1.0
    user_fact_score: Score | None = None
    user_id: UserId | None = None


class FactPatchIn(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A partial edit: fields left out stay; `user_fact_score: null` removes the score."""

    object: FactText | None = None
    fact_type: FactType | None = None
    old_type: OldType = msgspec.field(default=None, name="type")
    time_span: TimeSpan | None = None
    user_fact_score: Score | msgspec.UnsetType | None = msgspec.UNSET


class FactOut(msgspec.Struct, kw_only=True):
    """A fact, decrypted. `current`: neither superseded nor ended."""

    id: UUID
    subject: str
    relation: str
    object: str
    fact_type: FactType
    old_type: OldTypeOut = msgspec.field(name="type")
    time_span: TimeSpan
    confidence: float
    user_fact_score: float | None
    source_memory_id: UUID | None
    source_time: datetime | None
    valid_from: datetime
    valid_until: datetime | None
    superseded_by: UUID | None
    current: bool
    created_at: datetime
    updated_at: datetime


class FactPageOut(msgspec.Struct, kw_only=True):
    """One page, newest first; pass `next_cursor` back as `cursor` for the next (null: done)."""

    items: list[FactOut]
    next_cursor: str | None


class ProfileOut(msgspec.Struct, kw_only=True):
    """The "do not forget" view: by type (identity, commitment, constraint, preference,
    trait, event), best first; `core` opens every prompt context."""

    core: list[FactOut]
    secondary: list[FactOut]


def fact_out(fact: Fact) -> FactOut:
    return FactOut(
        id=fact.id, subject=fact.subject, relation=fact.relation, object=fact.object,
        fact_type=fact.fact_type, old_type=fact.fact_type, time_span=fact.time_span,
        confidence=round(fact.confidence, 4),
        user_fact_score=fact.user_fact_score, source_memory_id=fact.source_memory_id,
        source_time=fact.source_time, valid_from=fact.valid_from, valid_until=fact.valid_until,
        superseded_by=fact.superseded_by, current=fact.is_current(),
        created_at=fact.created_at, updated_at=fact.updated_at,
    )


def profile_out(profile: Profile) -> ProfileOut:
    return ProfileOut(
        core=[fact_out(f) for f in profile.core],
        secondary=[fact_out(f) for f in profile.secondary],
    )


def to_new_fact(body: FactIn) -> NewFact:
    return NewFact(
        relation=body.relation, object=body.object, subject=body.subject,
        fact_type=aliased("fact_type", body.fact_type, "type", body.old_type),
        time_span=body.time_span, confidence=body.confidence,
        user_fact_score=body.user_fact_score,
    )


def to_fact_patch(body: FactPatchIn) -> FactPatch:
    score = body.user_fact_score
    return FactPatch(
        object=body.object, fact_type=aliased("fact_type", body.fact_type, "type", body.old_type),
        time_span=body.time_span,
        user_fact_score=None if isinstance(score, msgspec.UnsetType) else score,
        clear_score=score is None,
    )


class TopicOut(msgspec.Struct, kw_only=True):
    """A topic (a tag or an imported chat's title), how many memories carry it, and when
    the newest was said."""

    topic: str
    count: int
    last_activity: datetime


class TopicsOut(msgspec.Struct, kw_only=True):
    """The most recently active topics, at most `limit`; `truncated`: the user has more."""

    topics: list[TopicOut]
    truncated: bool = False


class OpenQuestionOut(msgspec.Struct, kw_only=True):
    """A question the user asked in the topic that no later memory of it answered."""

    memory_id: UUID
    question: str
    asked_at: datetime


class TopicDetailOut(msgspec.Struct, kw_only=True):
    """One topic, derived at read time: its current facts, its commitments as next actions,
    its open questions, its last activity."""

    topic: str
    count: int
    last_activity: datetime
    facts: list[FactOut]
    next_actions: list[FactOut]
    open_questions: list[OpenQuestionOut]


def topic_out(summary: TopicSummary) -> TopicOut:
    return TopicOut(topic=summary.topic, count=summary.count,
                    last_activity=summary.last_activity)


def topic_detail_out(view: TopicView) -> TopicDetailOut:
    return TopicDetailOut(
        topic=view.topic, count=view.count, last_activity=view.last_activity,
        facts=[fact_out(f) for f in view.facts],
        next_actions=[fact_out(f) for f in view.next_actions],
        open_questions=[
            OpenQuestionOut(memory_id=q.memory_id, question=q.question, asked_at=q.asked_at)
            for q in view.open_questions
        ],
    )
