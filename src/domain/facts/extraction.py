"""Fact extraction without an LLM: EN/DE patterns over what a user says about themselves."""

from __future__ import annotations

from datetime import datetime

from memlane.domain.facts.events import events
from memlane.domain.facts.model import RELATION_TYPES, USER, ExtractedFact, FactType, normalise
from memlane.domain.facts.patterns import (
    de as fact_patterns_de,
    de_plans as fact_patterns_de_plans,
    en as fact_patterns_en,
    en_plans as fact_patterns_en_plans,
)
from memlane.domain.facts.questions import relations_asked
from memlane.domain.facts.rules import Rule, objects
from memlane.domain.facts.sentences import (
    clauses,
    is_hypothetical,
    is_question,
    is_reported,
    sentences,
)
from memlane.domain.facts.time import time_span

__all__ = ["RULES", "extract_facts", "relations_asked"]

RULES: tuple[Rule, ...] = (
    *fact_patterns_en.IDENTITY, *fact_patterns_en.PREFERENCE,
    *fact_patterns_en_plans.COMMITMENT, *fact_patterns_en_plans.CONSTRAINT,
    *fact_patterns_en_plans.TRAIT,
    *fact_patterns_de.IDENTITY, *fact_patterns_de.PREFERENCE,
    *fact_patterns_de_plans.COMMITMENT, *fact_patterns_de_plans.CONSTRAINT,
    *fact_patterns_de_plans.TRAIT,
)
EVENT_CONFIDENCE = 0.75
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "`": "'"})  # typographic apostrophes


def _fact(relation: str, obj: str, confidence: float, *, negated: bool = False,
          when: str | None = None) -> ExtractedFact:
    fact_type = RELATION_TYPES[relation]
    return ExtractedFact(
        subject=USER, relation=relation, object=obj, fact_type=fact_type,
        time_span=time_span(relation, fact_type, obj, when), confidence=confidence,
        negated=negated, when=when,
    )


def _rule_facts(clause: str) -> list[ExtractedFact]:
    found: list[ExtractedFact] = []
    for rule_ in RULES:
        if rule_.unless is not None and rule_.unless.search(clause):
            continue
        for match in rule_.pattern.finditer(clause):
            relation = rule_.relation_of(match)
            if relation is None or (rule_.accept is not None and not rule_.accept(match)):
                continue
            found.extend(_fact(relation, obj, rule_.confidence, negated=rule_.negated)
                         for obj in objects(match, rule_))
    return found


def _event_facts(clause: str) -> list[ExtractedFact]:
    # Reported events ("she said I moved in 2019") are someone else's account.
    if is_reported(clause):
        return []
    return [_fact(FactType.EVENT.value, what, EVENT_CONFIDENCE, when=when)
            for what, when in events(clause)]


def extract_facts(text: str, *, said_at: datetime | None = None) -> list[ExtractedFact]:
    """The facts a user states about themselves in `text`, in order, each once.

    `said_at`: when the text was said (relative dates are resolved against it).

    Questions, wishes, conditions and reported speech state nothing; "no longer" statements
    come back negated (they end a fact). Precision over recall: a sentence the patterns do
    not understand yields nothing.
    """
    found: dict[tuple[str, str, bool], ExtractedFact] = {}
    for sentence in sentences(text.translate(_QUOTES)):
        if is_question(sentence) or is_hypothetical(sentence):
            continue
        for clause in clauses(sentence):
            for fact in (*_rule_facts(clause), *_event_facts(clause)):
                found.setdefault((fact.relation, normalise(fact.object), fact.negated), fact)
    return list(found.values())
