"""Facts as stored (sealed subject and object) and what the fact routes ask for."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from memlane.domain.errors import MemoryNotFound, MemoryUnreadable
from memlane.domain.facts.model import (
    RELATION_TYPES,
    USER,
    FactType,
    InvalidFact,
    TimeSpan,
    validate_confidence,
    validate_user_fact_score,
)
from memlane.domain.model import Owner
from memlane.domain.text_rules import has_nul, is_blank

MAX_FACT_CHARS = 500
# Relations are a vocabulary ("works_at", "allergic_to"), stored in plaintext like a memory's
# type; what a user says goes into subject and object, which are sealed.
RELATION_PATTERN = re.compile(r"^[a-z][a-z_]{0,39}$")


class FactUnreadable(MemoryUnreadable):
    """The owner's fact exists but its subject or object does not decrypt (a damaged row):
    left out of lists, profile, recall and export; refused by id (`fact-unreadable`)."""

    def __init__(self, fact_id: object) -> None:
        super().__init__(fact_id)
        self.args = (f"fact {fact_id} cannot be decrypted",)


class FactNotFound(MemoryNotFound):
    """No fact with that id for this owner (another owner's fact is 'not found' too)."""

    def __init__(self, fact_id: object) -> None:
        super().__init__(fact_id)
        self.args = (f"fact {fact_id} not found",)


@dataclass(frozen=True, slots=True)
class StoredFact:
    """A fact as the fact store holds it: subject and object sealed, their blind indexes
    (keyed hashes of the normalised text) for equality lookups, the rest in plaintext."""

    id: UUID
    owner: Owner
    subject: bytes
    object: bytes
    subject_index: str
    object_index: str
    relation: str
    fact_type: FactType
    time_span: TimeSpan
    confidence: float
    valid_from: datetime
    created_at: datetime
    updated_at: datetime
    user_fact_score: float | None = None
    source_memory_id: UUID | None = None
    source_time: datetime | None = None
    valid_until: datetime | None = None
    superseded_by: UUID | None = None
    # A relation outside memlane's vocabulary, sealed; `relation` then holds its blind token.
    relation_sealed: bytes | None = None


@dataclass(frozen=True, slots=True)
class FactFilter:
    """Which facts a listing wants: of one type; current ones only (True), ended ones only
    (False) or all (None)."""

    fact_type: FactType | None = None
    current: bool | None = True


@dataclass(frozen=True, slots=True)
class NewFact:
    """A fact the user states directly (POST /v1/facts); type and time span follow from the
    relation when it is a known one."""

    relation: str
    object: str
    subject: str = USER
    fact_type: FactType | None = None
    time_span: TimeSpan | None = None
    confidence: float = 1.0
    user_fact_score: float | None = None


@dataclass(frozen=True, slots=True)
class FactPatch:
    """An edit of a fact: fields left None stay; `clear_score` removes the user's score."""

    object: str | None = None
    fact_type: FactType | None = None
    time_span: TimeSpan | None = None
    user_fact_score: float | None = None
    clear_score: bool = False


def check_text(part: str, value: str) -> str:
    """A subject or object: trimmed, not empty, at most MAX_FACT_CHARS."""
    cleaned = " ".join(value.split())
    # The same rule as a memory's content: zero-width or other invisible characters alone
    # are nothing to remember (and NUL cannot be stored).
    if is_blank(cleaned):
        raise InvalidFact(f"a fact's {part} must not be empty or invisible")
    if has_nul(cleaned):
        raise InvalidFact(f"a fact's {part} must not contain NUL characters")
    if len(cleaned) > MAX_FACT_CHARS:
        raise InvalidFact(f"a fact's {part} must be at most {MAX_FACT_CHARS} characters")
    return cleaned


def check_relation(relation: str) -> str:
    """A relation name: lower-case letters and underscores, 1-40 characters."""
    cleaned = relation.strip()
    if not RELATION_PATTERN.match(cleaned):
        raise InvalidFact(
            "relation must be 1-40 lower-case letters or underscores, e.g. works_at"
        )
    return cleaned


def checked(new: NewFact) -> NewFact:
    """`new` cleaned and complete (type and time span filled in), or InvalidFact."""
    relation = check_relation(new.relation)
    fact_type = new.fact_type or RELATION_TYPES.get(relation)
    if fact_type is None:
        raise InvalidFact(f"relation {relation!r} is not a known one: name its type")
    validate_confidence(new.confidence)
    validate_user_fact_score(new.user_fact_score)
    return NewFact(
        relation=relation, object=check_text("object", new.object),
        subject=check_text("subject", new.subject), fact_type=fact_type,
        time_span=new.time_span or default_time_span(fact_type),
        confidence=new.confidence, user_fact_score=new.user_fact_score,
    )


def default_time_span(fact_type: FactType) -> TimeSpan:
    """A stated fact's window when the caller names none."""
    if fact_type is FactType.COMMITMENT:
        return TimeSpan.FUTURE
    if fact_type in (FactType.IDENTITY, FactType.PREFERENCE):
        return TimeSpan.CURRENT
    return TimeSpan.LONG_TERM
