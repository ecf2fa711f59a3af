"""Facts (seed 004): subject-relation-object values, their rules, and which ones a new fact ends."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from uuid import UUID

from memlane.domain.errors import InvalidMemory
from memlane.domain.text_rules import is_blank

USER = "user"
MAX_USER_FACT_SCORE = 10.0


class FactType(StrEnum):
    """What kind of statement a fact is; the 'do not forget' profile orders by it."""

    EVENT = "event"
    TRAIT = "trait"
    IDENTITY = "identity"
    COMMITMENT = "commitment"
    PREFERENCE = "preference"
    CONSTRAINT = "constraint"


class TimeSpan(StrEnum):
    """A coarse window in which a fact holds or happened."""

    SHORT_TERM = "short_term"
    MEDIUM_TERM = "medium_term"
    CURRENT = "current"
    LONG_TERM = "long_term"
    FUTURE = "future"


class InvalidFact(InvalidMemory):
    """A fact that breaks a rule: empty parts, confidence outside [0, 1], a score outside 0-10."""


_TYPE_RELATIONS: Mapping[FactType, tuple[str, ...]] = {
    FactType.IDENTITY: (
        "name", "lives_in", "comes_from", "birthplace", "birthday", "birth_year", "age",
        "works_at", "works_as", "works_in", "partner", "sister", "brother", "mother", "father",
        "son", "daughter", "children", "pet", "nationality",
    ),
    FactType.PREFERENCE: ("likes", "dislikes", "prefers"),
    FactType.CONSTRAINT: (
        "allergic_to", "intolerant_to", "cannot", "avoids", "diet", "rule", "condition",
        "afraid_of",
    ),
    FactType.COMMITMENT: ("commits_to",),
    FactType.TRAIT: ("trait",),
    FactType.EVENT: ("event",),
}
RELATION_TYPES: Mapping[str, FactType] = {
    relation: fact_type for fact_type, relations in _TYPE_RELATIONS.items()
    for relation in relations
}
# Each relation's place in its type's list above, which runs from what says most about the
# user (a name, a home) to what says least: the profile's last word between equal facts.
RELATION_RANK: Mapping[str, int] = {
    relation: rank for relations in _TYPE_RELATIONS.values()
    for rank, relation in enumerate(relations)
}
# A person has one value of these at a time: a new, different object replaces the old one.
# Siblings, children, pets, likes and allergies accumulate instead.
FUNCTIONAL_RELATIONS: frozenset[str] = frozenset({
    "name", "lives_in", "comes_from", "birthplace", "birthday", "birth_year", "age",
    "works_at", "works_as", "partner", "diet",
})
# The facts a memory keeps while they hold: cleanup never takes a memory that carries a
# current one (issue 31). One value at a time (home, job, name, partner) or health and safety
# (the constraint type: allergies, intolerances, conditions, diets, rules).
TYPES_KEPT_FROM_CLEANUP: frozenset[FactType] = frozenset({FactType.CONSTRAINT})


def keeps_its_memory(relation: str, fact_type: FactType) -> bool:
    """Whether a current fact of this relation and type keeps its source memory from
    cleanup (the SQL mirror lists the same relations and types: memories/sql.py)."""
    return relation in FUNCTIONAL_RELATIONS or fact_type in TYPES_KEPT_FROM_CLEANUP


# Relations that contradict each other about the same object ("likes coffee" against
# "dislikes coffee" or "avoids coffee"): the newer one wins.
_OPPOSITES = (("likes", "dislikes"), ("likes", "avoids"), ("prefers", "dislikes"))
OPPOSITE_RELATIONS: Mapping[str, frozenset[str]] = {
    relation: frozenset(b if a == relation else a for a, b in _OPPOSITES if relation in (a, b))
    for pair in _OPPOSITES for relation in pair
}

_ARTICLES = re.compile(
    r"^(?:(?:the|a|an|der|die|das|dem|den|des|ein|eine|einer|einem|einen|eines)\s+)+"
)
# Quotes of every kind (typographic ones by code point), commas and the like, trailing dots.
_PUNCTUATION = re.compile(
    "[\"'\u201c\u201d\u201e\u201a\u2018\u2019\u00ab\u00bb,;:!?()\\[\\]]|\\.+$"
)


def normalise(value: str) -> str:
    """A comparison key: case, quotes, commas, trailing dots and leading articles do not count."""
    key = _PUNCTUATION.sub(" ", value.casefold())
    key = " ".join(key.split()).rstrip(".")
    return _ARTICLES.sub("", key).strip()


def validate_confidence(confidence: float) -> float:
    if not 0.0 <= confidence <= 1.0:
        raise InvalidFact(f"confidence must be within [0, 1], got {confidence}")
    return confidence


def validate_user_fact_score(score: float | None) -> float | None:
    """A human's curation score: absent, or 0 (wrong, hide it) to 10 (never forget)."""
    if score is not None and not 0.0 <= score <= MAX_USER_FACT_SCORE:
        raise InvalidFact(f"user_fact_score must be within 0-10, got {score}")
    return score


def _require_text(**parts: str) -> None:
    for part, value in parts.items():
        if is_blank(value):  # zero-width characters alone, as for a memory's content
            raise InvalidFact(f"a fact's {part} must not be empty or invisible")


@dataclass(frozen=True, slots=True)
class ExtractedFact:
    """A fact as read from one statement, before it is stored; `negated` ends a fact."""

    subject: str
    relation: str
    object: str
    fact_type: FactType
    time_span: TimeSpan
    confidence: float
    negated: bool = False
    # As written: an event's date or a commitment's due date ("yesterday", "am 3. Juli"),
    # and when a fact began ("since March", "seit 2019"); domain/facts/dates.py resolves
    # both against the time the statement was said.
    when: str | None = None
    since: str | None = None

    def __post_init__(self) -> None:
        _require_text(subject=self.subject, relation=self.relation, object=self.object)
        validate_confidence(self.confidence)


@dataclass(frozen=True, slots=True)
class Fact:
    """A stored fact: valid from `valid_from` until it is superseded or ended."""

    id: UUID
    subject: str
    relation: str
    object: str
    fact_type: FactType
    time_span: TimeSpan
    confidence: float
    valid_from: datetime
    created_at: datetime
    updated_at: datetime
    user_fact_score: float | None = None
    source_memory_id: UUID | None = None
    valid_until: datetime | None = None
    superseded_by: UUID | None = None
    source_time: datetime | None = None  # when the source memory was said

    def __post_init__(self) -> None:
        _require_text(subject=self.subject, relation=self.relation, object=self.object)
        validate_confidence(self.confidence)
        validate_user_fact_score(self.user_fact_score)
        if self.valid_until is not None and self.valid_until < self.valid_from:
            raise InvalidFact("a fact cannot end before it starts")

    def is_current(self, now: datetime | None = None) -> bool:
        """Not superseded and not ended (an end still ahead of `now` does not count yet)."""
        if self.superseded_by is not None:
            return False
        return self.valid_until is None or (now is not None and self.valid_until > now)


def fact_from_extracted(
    extracted: ExtractedFact, *, fact_id: UUID, now: datetime,
    source_memory_id: UUID | None = None, source_time: datetime | None = None,
) -> Fact:
    """The stored form of a positive extracted fact, valid from `now`."""
    if extracted.negated:
        raise InvalidFact("a negated fact ends other facts; it is not stored itself")
    return Fact(
        id=fact_id, subject=extracted.subject, relation=extracted.relation,
        object=extracted.object, fact_type=extracted.fact_type, time_span=extracted.time_span,
        confidence=extracted.confidence, valid_from=now, created_at=now, updated_at=now,
        source_memory_id=source_memory_id, source_time=source_time,
    )


def superseded_facts(
    existing: Sequence[Fact], new: ExtractedFact, *, now: datetime | None = None,
) -> list[Fact]:
    """The current facts about the same subject that `new` replaces, ends or contradicts.

    A negated fact ends the same relation and object; a functional relation's new object
    replaces a different one; an opposite relation about the same object contradicts it.
    Restating the same value supersedes nothing.
    """
    subject, obj = normalise(new.subject), normalise(new.object)
    opposites = OPPOSITE_RELATIONS.get(new.relation, frozenset())
    found: list[Fact] = []
    for fact in existing:
        if not fact.is_current(now) or normalise(fact.subject) != subject:
            continue
        same_object = normalise(fact.object) == obj
        if new.negated:
            hit = fact.relation == new.relation and same_object
        elif fact.relation == new.relation:
            hit = new.relation in FUNCTIONAL_RELATIONS and not same_object
        else:
            hit = fact.relation in opposites and same_object
        if hit:
            found.append(fact)
    return found


def supersede(fact: Fact, *, now: datetime, by: UUID | None = None) -> Fact:
    """`fact` ended at `now`, by the fact that replaced it (None: a statement only ended it)."""
    return replace(fact, valid_until=max(now, fact.valid_from), superseded_by=by, updated_at=now)


def with_user_score(fact: Fact, score: float | None, *, now: datetime) -> Fact:
    """`fact` with a human's curation score (None clears it)."""
    return replace(fact, user_fact_score=validate_user_fact_score(score), updated_at=now)
