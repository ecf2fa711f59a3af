"""Fact extraction without an LLM: EN/DE patterns over what a user says about themselves."""

from __future__ import annotations

import re
from dataclasses import replace

from memlane.domain.facts.antecedents import antecedent_readings, without_parenthetical_ages
from memlane.domain.facts.colloquial import spelled_out
from memlane.domain.facts.events import events
from memlane.domain.facts.model import RELATION_TYPES, USER, ExtractedFact, FactType, normalise
from memlane.domain.facts.patterns import (
    constructions as fact_patterns_constructions,
    de as fact_patterns_de,
    de_plans as fact_patterns_de_plans,
    en as fact_patterns_en,
    en_plans as fact_patterns_en_plans,
    habits as fact_patterns_habits,
    idioms as fact_patterns_idioms,
    kin as fact_patterns_kin,
    names as fact_patterns_names,
    plans as fact_patterns_plans,
    roles as fact_patterns_roles,
    slots as fact_patterns_slots,
    work as fact_patterns_work,
)
from memlane.domain.facts.patterns.lexicon import FIGURATIVE_ALLERGENS, PET_WORDS
from memlane.domain.facts.patterns.names import fuller_name
from memlane.domain.facts.questions import relations_asked
from memlane.domain.facts.readings import (
    Reading,
    ended_readings,
    gapped_reading,
    relative_reading,
    subordinate_readings,
)
from memlane.domain.facts.rules import Rule, is_filler, objects
from memlane.domain.facts.sentences import (
    clauses,
    is_reported,
    sentences,
    statement_part,
)
from memlane.domain.facts.time import (
    anchored_in_distant_past,
    due_expression,
    start_expression,
    time_span,
)
from memlane.domain.facts.word_order import subject_first
from memlane.domain.prefilter import Prefilter

__all__ = ["RULES", "extract_facts", "relations_asked"]

RULES: tuple[Rule, ...] = (
    *fact_patterns_names.RULES, *fact_patterns_kin.RULES, *fact_patterns_plans.RULES,
    *fact_patterns_idioms.RULES, *fact_patterns_habits.RULES, *fact_patterns_work.RULES,
    *fact_patterns_constructions.RULES, *fact_patterns_constructions.MORE,
    *fact_patterns_constructions.POSSESSED, *fact_patterns_constructions.DATIVE,
    *fact_patterns_constructions.LET_GO, *fact_patterns_roles.RULES,
    *fact_patterns_slots.RULES,
    *fact_patterns_en.IDENTITY, *fact_patterns_en.PREFERENCE,
    *fact_patterns_en_plans.COMMITMENT, *fact_patterns_en_plans.CONSTRAINT,
    *fact_patterns_en_plans.TRAIT,
    *fact_patterns_de.IDENTITY, *fact_patterns_de.PREFERENCE,
    *fact_patterns_de_plans.COMMITMENT, *fact_patterns_de_plans.CONSTRAINT,
    *fact_patterns_de_plans.TRAIT,
)
# A rule runs only on a clause holding a string every match of it needs (domain/prefilter.py).
_CAN_MATCH = Prefilter([r.pattern for r in RULES])
EVENT_CONFIDENCE = 0.75
_QUOTED = re.compile("\"[^\"]{3,}\"|\u201e[^\u201c\u201d]{3,}[\u201c\u201d]"
                     "|\u201c[^\u201d]{3,}\u201d")
_QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "`": "'"})  # typographic apostrophes
# What holds now, which a statement about the distant past ("as a kid", "früher") never sets.
_NAMED_RELATIONS = frozenset({"sister", "brother", "mother", "father", "son", "daughter",
                              "children", "pet", "partner"})
_HEALTH = frozenset({"allergic_to", "intolerant_to"})
_POINTERS = frozenset({"es", "das", "dies", "ihn", "sie", "ihm", "davon", "darüber", "daran",
                       "dazu", "it", "that", "this", "them"})
_STATES = frozenset({FactType.IDENTITY, FactType.PREFERENCE, FactType.CONSTRAINT,
                     FactType.TRAIT})


def _fact(relation: str, obj: str, confidence: float, *, negated: bool = False,
          when: str | None = None, subject: str = USER) -> ExtractedFact:
    fact_type = RELATION_TYPES[relation]
    return ExtractedFact(
        subject=subject, relation=relation, object=obj, fact_type=fact_type,
        time_span=time_span(relation, fact_type, obj, when), confidence=confidence,
        negated=negated, when=when,
    )


def _rule_facts(clause: str) -> list[ExtractedFact]:
    found: list[ExtractedFact] = []
    for rule_ in (RULES[i] for i in _CAN_MATCH.candidates(clause)):
        if rule_.unless is not None and rule_.unless.search(clause):
            continue
        for match in rule_.pattern.finditer(clause):
            relation = rule_.relation_of(match)
            if relation is None or (rule_.accept is not None and not rule_.accept(match)):
                continue
            subject = rule_.subject(match) if rule_.subject is not None else USER
            if not subject:
                continue
            found.extend(_fact(relation, obj, rule_.confidence, negated=rule_.negated,
                               subject=subject)
                         for obj in objects(match, rule_) if not _figurative(relation, obj))
    return found


def _figurative(relation: str, obj: str) -> bool:
    """An allergy to something no body reacts to is a figure of speech."""
    return relation in _HEALTH and obj.casefold().split()[-1] in FIGURATIVE_ALLERGENS


def _continuations(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """A bare verb after another event of its sentence continues it ("bought a flat in Graz
    and moved in", "hab gekündigt bei Tesla ... gekündigt"): no event of its own."""
    told = [f for f in facts if f.relation == "event" and " " in f.object]
    return [f for f in facts if not (f.relation == "event" and " " not in f.object and told)]


def _event_facts(clause: str) -> list[ExtractedFact]:
    # Reported events ("she said I moved in 2019") are someone else's account.
    if is_reported(clause):
        return []
    # "I went there", "moved here": a verb and a pointer name no event.
    # "es gesehen", "das gemacht": a pointer and a participle name no event either.
    return [_fact(FactType.EVENT.value, what, EVENT_CONFIDENCE, when=when)
            for what, when in events(clause)
            if " " not in what or not (is_filler(what.partition(" ")[2])
                                       or _pointer_and_verb(what))]


def _pointer_and_verb(what: str) -> bool:
    words = what.casefold().split()
    return len(words) == 2 and words[0] in _POINTERS


def _named_ages(statement: str, facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """The ages the statement gives the relatives and pets it names ("Mia who's 7")."""
    # Only names: "Hund" in "unser Hund ist 12" is the animal, which its own rule ages.
    names = [f.object for f in facts if f.relation in _NAMED_RELATIONS
             and f.object.casefold() not in fact_patterns_kin.RELATIVES
             and f.object.casefold() not in PET_WORDS]
    return [_fact("age", years, 0.8, subject=name)
            for name, years in fact_patterns_kin.ages_of_named(statement, names)]


def _dated(fact: ExtractedFact, sentence: str) -> ExtractedFact:
    """A commitment's due date, or when a state began, as the sentence words them."""
    if fact.fact_type is FactType.COMMITMENT:
        return replace(fact, when=due_expression(sentence))
    if fact.fact_type in _STATES and not fact.negated:
        return replace(fact, since=start_expression(sentence))
    return fact


def _readings(sentence: str) -> list[Reading]:
    """The sentence's clauses, each also with its subject first when German puts it later,
    its subordinate clauses verb second, a relative's clause and an ended state's clause
    (readings.py)."""
    plain: list[str] = []
    # An opener can be the first constituent itself: "Übrigens bin ich Vegetarierin".
    opened = subject_first(sentence)
    plain += [opened] if opened is not None else []
    for clause in clauses(sentence):
        plain.append(clause)
        reordered = subject_first(clause)
        if reordered is not None:
            plain.extend(clauses(reordered))
    found = [Reading(clause) for clause in plain]
    found += subordinate_readings(sentence)
    for clause in list(plain):
        relative, gapped = relative_reading(clause), gapped_reading(clause)
        found += [r for r in (relative, gapped) if r is not None]
        found += ended_readings(clause)
    return found


def _read(reading: Reading) -> list[ExtractedFact]:
    """The facts of one reading, as the reading says they are meant."""
    if reading.relations is None:
        return [*_rule_facts(reading.text), *_event_facts(reading.text)]
    return [replace(fact, negated=fact.negated or reading.negated,
                    subject=reading.subject or fact.subject)
            for fact in _rule_facts(reading.text)
            if fact.relation in reading.relations and not (reading.negated and fact.negated)]


def _lent(statement: str) -> list[ExtractedFact]:
    """Facts about a relative or pet whose clause borrows it as subject (antecedents.py):
    only those about the relative, never the user's."""
    found = []
    for text in antecedent_readings(statement):
        for reading in _readings(text):
            facts = _read(reading)
            found += [f for f in (*facts, *_named_ages(text, facts))
                      if f.subject != USER or _a_name_given(f)]
    return found


def _a_name_given(fact: ExtractedFact) -> bool:
    """A relative or pet given their name ("Mein Hund ... und heißt Otto")."""
    return fact.relation in _NAMED_RELATIONS and fact.object.casefold() not in (
        fact_patterns_kin.RELATIVES) and fact.object.casefold() not in PET_WORDS


def _kinds_named(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """A pet said by its kind and later by its name is its name: "Mein Hund ist ein Beagle
    und heißt Otto" has the pet Otto, not also the pet "Hund"."""
    if not any(f.relation == "pet" and _a_name_given(f) for f in facts):
        return facts
    return [f for f in facts if not (f.relation == "pet" and f.object.casefold() in PET_WORDS)]


def _statement_facts(statement: str) -> list[ExtractedFact]:
    """The facts of one statement, each reading's, dated; none of a state in the distant
    past."""
    past = anchored_in_distant_past(statement)
    listed = without_parenthetical_ages(statement)
    found = []
    for reading in [*_readings(listed), None]:
        facts = _read(reading) if reading is not None else _lent(listed)
        for fact in (*facts, *_named_ages(statement, facts)):
            if past and fact.fact_type in _STATES:
                continue
            if fact.relation == "name":
                fact = replace(fact, object=fuller_name(statement, fact.object))
            found.append(_dated(fact, statement))
    return found


def extract_facts(text: str) -> list[ExtractedFact]:
    """The facts a user states about themselves in `text`, in order, each once.

    Questions, wishes, conditions and reported speech state nothing; "no longer" statements
    come back negated (they end a fact); a statement about the distant past ("as a kid",
    "früher") sets no current fact, only its event. Precision over recall: a sentence the
    patterns do not understand yields nothing.
    """
    found: dict[tuple[str, str, str, bool], ExtractedFact] = {}
    # Quoted words are someone's words to translate, correct or report, not a statement.
    for said in sentences(_QUOTED.sub(" ", text.translate(_QUOTES))):
        statement = statement_part(spelled_out(said))
        if statement is None:
            continue
        for fact in _continuations(_statement_facts(statement)):
            key = (normalise(fact.subject), fact.relation, normalise(fact.object), fact.negated)
            found.setdefault(key, fact)
    return _kinds_named(list(found.values()))
