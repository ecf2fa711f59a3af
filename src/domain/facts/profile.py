"""The "do not forget" profile: current facts by type, ranked, capped, and rendered for a prompt."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from memlane.domain.facts.model import USER, Fact, FactType

# The order the profile (and the prompt) shows types in: who the user is first.
TYPE_ORDER: tuple[FactType, ...] = (
    FactType.IDENTITY, FactType.COMMITMENT, FactType.CONSTRAINT, FactType.PREFERENCE,
    FactType.TRAIT, FactType.EVENT,
)
# A fact nobody scored ranks as if scored this (the middle of 0-10): a human's 8 lifts a
# fact above every unscored one, a 3 sinks it below them.
NEUTRAL_SCORE = 5.0


@dataclass(frozen=True, slots=True)
class ProfileCaps:
    """How many facts of each type each tier holds (core first, then secondary)."""

    core_per_type: int = 3
    secondary_per_type: int = 5

    def __post_init__(self) -> None:
        if self.core_per_type < 0 or self.secondary_per_type < 0:
            raise ValueError("profile caps must not be negative")


@dataclass(frozen=True, slots=True)
class Profile:
    """The user's global view: `core` goes into every prompt, `secondary` is the rest worth
    showing; both grouped by TYPE_ORDER, best first within a type."""

    core: tuple[Fact, ...]
    secondary: tuple[Fact, ...]


def weight(fact: Fact, importance: float) -> tuple[float, float]:
    """The ranking key (higher first): the user's score, then confidence x importance."""
    score = NEUTRAL_SCORE if fact.user_fact_score is None else fact.user_fact_score
    return score, fact.confidence * importance


def build_profile(
    facts: Sequence[Fact],
    importance: Mapping[UUID, float],
    caps: ProfileCaps,
    now: datetime,
    default_importance: float = 1.0,
) -> Profile:
    """Current facts grouped by type, ranked, the first `core_per_type` of each type core,
    the next `secondary_per_type` secondary. A fact scored 0 (a human said "wrong") is left
    out; `importance` is that of each fact's source memory (`default_importance` for a fact
    stated directly)."""
    core: list[Fact] = []
    secondary: list[Fact] = []
    for fact_type in TYPE_ORDER:
        of_type = [
            f for f in facts
            if f.fact_type is fact_type and f.is_current(now) and f.user_fact_score != 0
        ]
        of_type.sort(key=lambda f: (
            weight(f, importance.get(f.source_memory_id, default_importance)
                   if f.source_memory_id else default_importance),
            f.valid_from, str(f.id),
        ), reverse=True)
        core += of_type[:caps.core_per_type]
        secondary += of_type[caps.core_per_type:caps.core_per_type + caps.secondary_per_type]
    return Profile(tuple(core), tuple(secondary))


def render_fact(fact: Fact) -> str:
    """One fact as a prompt line: its type, relation and object (and a subject not the user)."""
    subject = "" if fact.subject == USER else f"{fact.subject} "
    return f"- [{fact.fact_type.value}] {subject}{fact.relation.replace('_', ' ')}: {fact.object}"

# The prompt renders these lines under two honest headers: domain/facts/prompt_block.py.
