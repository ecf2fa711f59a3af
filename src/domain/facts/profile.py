"""The "do not forget" profile: current facts by type, ranked, capped, and rendered for a prompt."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from memlane.domain.facts.model import RELATION_RANK, USER, Fact, FactType

# The order the profile (and the prompt) shows types in: who the user is first. Safety
# constraints (below) come before all of them.
TYPE_ORDER: tuple[FactType, ...] = (
    FactType.IDENTITY, FactType.COMMITMENT, FactType.CONSTRAINT, FactType.PREFERENCE,
    FactType.TRAIT, FactType.EVENT,
)
# Constraints that protect health: an allergy, an intolerance, a medical condition. They
# lead the profile and are all core, outside the per-type caps: a profile that keeps "afraid
# of heights" and drops "allergic to penicillin" fails at its one job. A user with twenty
# allergies needs all twenty; such facts are few, and other constraints keep their own cap.
SAFETY_RELATIONS: frozenset[str] = frozenset({"allergic_to", "intolerant_to", "condition"})
# A fact nobody scored ranks as if scored this (the middle of 0-10): a human's 8 lifts a
# fact above every unscored one, a 3 sinks it below them.
NEUTRAL_SCORE = 5.0


@dataclass(frozen=True, slots=True)
class ProfileCaps:
    """How many facts of each type each tier holds (core first, then secondary); safety
    constraints are all core and count against no cap."""

    core_per_type: int = 3
    secondary_per_type: int = 5

    def __post_init__(self) -> None:
        if self.core_per_type < 0 or self.secondary_per_type < 0:
            raise ValueError("profile caps must not be negative")


@dataclass(frozen=True, slots=True)
class Profile:
    """The user's global view: `core` goes into every prompt, `secondary` is the rest worth
    showing; safety constraints first, then grouped by TYPE_ORDER, best first within each."""

    core: tuple[Fact, ...]
    secondary: tuple[Fact, ...]


def is_safety(fact: Fact) -> bool:
    """Whether the fact is a constraint that protects the user's health (SAFETY_RELATIONS)."""
    return fact.fact_type is FactType.CONSTRAINT and fact.relation in SAFETY_RELATIONS


def weight(fact: Fact) -> tuple[float, float, datetime, int, str]:
    """The ranking key (higher first): the user's score, then confidence, then the newer
    statement, then the relation's rank in its type (a home before a workplace, a workplace
    before a pet: facts written together tie on all else), then the id (a stable order). How
    long ago the source memory was said, or how often it was recalled, does not count: an
    allergy matters as much after a month."""
    score = NEUTRAL_SCORE if fact.user_fact_score is None else fact.user_fact_score
    rank = RELATION_RANK.get(fact.relation, len(RELATION_RANK))
    return score, fact.confidence, fact.valid_from, -rank, str(fact.id)


def build_profile(facts: Sequence[Fact], caps: ProfileCaps, now: datetime) -> Profile:
    """Current facts ranked by `weight`: every safety constraint core, first; then for each
    type of TYPE_ORDER the first `core_per_type` core and the next `secondary_per_type`
    secondary. A fact scored 0 (a human said "wrong") is left out."""
    shown = sorted(
        (f for f in facts if f.is_current(now) and f.user_fact_score != 0),
        key=weight, reverse=True,
    )
    core = [f for f in shown if is_safety(f)]
    secondary: list[Fact] = []
    for fact_type in TYPE_ORDER:
        of_type = [f for f in shown if f.fact_type is fact_type and not is_safety(f)]
        core += of_type[:caps.core_per_type]
        secondary += of_type[caps.core_per_type:caps.core_per_type + caps.secondary_per_type]
    return Profile(tuple(core), tuple(secondary))


def render_fact(fact: Fact) -> str:
    """One fact as a prompt line: its type, relation and object (and a subject not the user)."""
    subject = "" if fact.subject == USER else f"{fact.subject} "
    return f"- [{fact.fact_type.value}] {subject}{fact.relation.replace('_', ' ')}: {fact.object}"

# The prompt renders these lines under two honest headers: domain/facts/prompt_block.py.
