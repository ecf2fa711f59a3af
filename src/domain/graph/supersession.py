"""Supersession: whether a new memory replaces what an older one said (no LLM call)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from functools import lru_cache
from itertools import pairwise
from typing import NamedTuple
from uuid import UUID

from memlane.domain.graph import (
    supersession_cues as cues,
    supersession_lexicon as lexicon,
    supersession_tense as tense,
)
from memlane.domain.graph.supersession_reading import OTHER, SELF, Reading, SupersessionCues
from memlane.domain.graph.supersession_topic import (
    about_someone_named,
    flips,
    holders_agree,
    partner_ended,
    same_topic,
    shared_words,
)
from memlane.domain.graph.supersession_words import normalise

__all__ = [
    "DEFAULT_BAND", "DEFAULT_CUES", "Candidate", "SupersessionCues", "SupersessionDecision",
    "SupersessionKind", "asks_about_past", "judge_supersession",
]

# Cosine band (all-MiniLM-L6-v2, between what the user said in each) in which an older memory
# can be the one replaced; calibrated on bench/data/supersession_scenarios.jsonl
# (docs/supersession.md). No ceiling below 1: "meets on Wednesdays from now on" is 0.92 to
# "meets on Thursdays", above the 0.85 merge threshold, so a restatement is told from a
# correction by its words, not its cosine.
DEFAULT_BAND = (0.0, 1.0)
# What a shared slot weighs when candidates compete: one that holds a single value (home, job)
# says more about being the same thing than a shared word.
_SINGLE_SLOT_WEIGHT = 0.25
# Cosine weighs little beside the words: a conversation turn embeds with its date and reply, so
# its cosines run higher than a plain memory's, and the routes must pick the same candidate.
_COSINE_WEIGHT = 0.25
_SLOT_WEIGHT = 0.1
_REFERRING_PENALTY = 0.3
# A new value of the same kind (a time for a time, a date for a date) points at the candidate.
_SHAPE_WEIGHT = 0.15
_HOLDER_WEIGHT = 0.3
# How soon after another statement a referring one ("It's called Boulderwelt") is read as
# pointing back at it.
ANTECEDENT_WINDOW = timedelta(hours=2)
# A subject pronoun that may stand for a thing said just before.
_THING_PRONOUN = re.compile(r"\s*(?:(?:it|it's|er|es|sie)(?!\w)|that's|(?:das|that|this)\s+"
                            r"(?:ist|war|wurde|wird|hat|is|was|has|got|will)(?!\w))")


class SupersessionKind(StrEnum):
    SUPERSEDES = "supersedes"  # a new value for the same thing: Berlin -> Lisbon
    CONTRADICTION = "contradiction"  # the new one negates the old: love coffee -> no coffee


@dataclass(frozen=True, slots=True)
class SupersessionDecision:
    """An edge new -> `replaces`; the older memory gets valid_until and superseded_by."""

    replaces: UUID
    kind: SupersessionKind
    score: float
    reasons: tuple[str, ...]


class Candidate(NamedTuple):
    """An older memory the new one may replace: what the user said in it, its cosine to what
    the user says now, and when it was said (a chain's newest value is its current head)."""

    id: UUID
    text: str
    cosine: float
    said_at: datetime | None = None


DEFAULT_CUES = SupersessionCues()


def asks_about_past(query: str, cue_set: SupersessionCues = DEFAULT_CUES) -> bool:
    """Whether a query asks what used to be true, so superseded memories may be shown."""
    return cue_set.has("past", query)


def _reasons(
    new: Reading, old: Reading, cosine: float, band: tuple[float, float], cued: bool,
    old_is_change: bool = False,
) -> tuple[str, ...] | None:
    """Why `new` replaces `old`, or None when it does not."""
    low, high = band
    if (not low <= cosine <= high or not holders_agree(new, old)
            or not same_topic(new, old, old_is_change)):
        return None
    flip = flips(new, old)
    # A restatement asserts the same; anything else may replace ("Jan moved away, my partner is
    # now Mira" still names Jan). When the new one only adds, replacing loses nothing.
    replaced = old.asserted != new.asserted
    if not (flip or (cued and replaced)):
        return None
    found = (("cue", cued), ("polarity", flip), ("replaced", replaced))
    return tuple(r for r, present in found if present) + tuple(
        f"slot:{slot}" for slot in sorted(new.slots & old.slots)
    )


def _score(new: Reading, old: Reading, cosine: float, is_fact: bool, referring: bool) -> float:
    shared = new.slots & old.slots
    single = len(shared & lexicon.SINGLE_VALUED_SLOTS)
    score = (_COSINE_WEIGHT * cosine + _SINGLE_SLOT_WEIGHT * single
             + _SLOT_WEIGHT * (len(shared) - single))
    # A shared name says more than a shared word ("Tanja" / "Tanja").
    score += 0.1 * min(len(shared_words(new, old)), 4) + 0.1 * len(new.names & old.names)
    score += 0.5 * is_fact + _SHAPE_WEIGHT * len(new.shapes & old.shapes)
    # What the user says of themselves replaces a relative's value last ("Ich bin nach Halle
    # gezogen": my Leipzig, not my sister's Halle), unless it ends the bond with them.
    score -= _HOLDER_WEIGHT * (new.holder == SELF and old.holder not in (None, SELF, OTHER)
                               and not partner_ended(new, old))
    return round(score - _REFERRING_PENALTY * referring, 4)


@lru_cache(maxsize=1024)
def _read(cue_set: SupersessionCues, text: str) -> Reading:
    # A pure reading of a text: the same older memories are candidates for many new ones.
    # (Held in this process only, like any plaintext the service opens.)
    return cue_set.read(text)


def _silent(new_text: str, cue_set: SupersessionCues, said_at: datetime | None) -> bool:
    """Questions, hypotheticals, additions, "still"/"as I said" and the distant past
    replace nothing."""
    norm = normalise(new_text)
    # "Too" after a change that ends something says the change came again ("I sold the Golf
    # too"), not that a value was added.
    adds = (cue_set.has("addition", new_text) or bool(cues.TRAILING_ADDITION.search(norm))) and (
        not cue_set.has("ending", new_text))
    return not new_text.strip() or cue_set.is_question(new_text) or adds or any(
        cue_set.has(family, new_text) for family in ("hedge", "continuity")
    ) or cue_set.in_distant_past(
        new_text, said_at.year if said_at else None
    ) or (bool(tense.EPISODE.search(norm)) and not cue_set.has("state_change", new_text))


def _cued(reading: Reading, text: str, cue_set: SupersessionCues) -> bool:
    """Whether a statement says a value changed: a correction naming the old value, change
    language, or a German future of a change ("werde ... ziehen")."""
    return reading.names_old_value or cue_set.has("change", text) or bool(
        tense.FUTURE_CHANGE.search(normalise(text)))


def _head(found: list[tuple[Candidate, SupersessionDecision]], read: dict[UUID, Reading],
          cued: dict[UUID, bool]) -> tuple[Candidate, SupersessionDecision]:
    """The best-matching decision, or a newer one about the same thing: a chain's current
    value is replaced, not the oldest ("moved to Cologne" after "I live in Bonn"): a newer
    candidate that itself replaced the best one is its head."""
    best_candidate, best = max(found, key=lambda pair: pair[1].score)
    if best_candidate.said_at is None:
        return best_candidate, best
    best_reading = read[best_candidate.id]
    newer = [
        (c, d) for c, d in found
        if c.said_at is not None and c.said_at > best_candidate.said_at
        and _reasons(read[c.id], best_reading, 1.0, (-1.0, 1.0), cued[c.id],
                     cued[best_candidate.id]) is not None
    ]
    return max(newer, key=lambda pair: pair[0].said_at or datetime.min) if newer else (
        best_candidate, best)


def _with_antecedents(pool: Sequence[Candidate], read: dict[UUID, Reading],
                      cued: dict[UUID, bool]) -> set[UUID]:
    """Reads each referring statement with the one said just before it ("It was moved to
    Tuesday" after "The meeting is on Monday"), and an elaboration's words into what it
    elaborates ("It's called Boulderwelt"): the elaborations, now part of another, are
    returned to be left out as candidates."""
    timed = sorted(((c.said_at, c) for c in pool if c.said_at is not None),
                   key=lambda pair: pair[0])
    merged: set[UUID] = set()
    for (before_at, before), (after_at, after) in pairwise(timed):
        if not read[after.id].refers or after_at - before_at > ANTECEDENT_WINDOW:
            continue
        if cued[after.id]:
            read[after.id] = read[after.id].joined(read[before.id])
        else:
            read[before.id] = read[before.id].joined(read[after.id])
            merged.add(after.id)
    return merged


def _with_own_antecedent(new_text: str, new: Reading, cued: bool, pool: Sequence[Candidate],
                         read: dict[UUID, Reading], said_at: datetime | None) -> Reading:
    """A change said of "it"/"er"/"sie" ("Er wurde auf Mittwoch verschoben") is about what
    was said just before it: read with that statement's words (not a person's "he"/"she")."""
    if not (cued and _THING_PRONOUN.match(normalise(new_text))) or new.third_person or (
            said_at is None):
        return new
    before = [c for c in pool
              if c.said_at is not None and timedelta(0) <= said_at - c.said_at
              <= ANTECEDENT_WINDOW]
    if not before:
        return new
    antecedent = read[max(before, key=lambda c: c.said_at or datetime.min).id]
    # Only when it speaks of the same kind of thing ("Er hat bei Bosch angefangen" is a
    # person's news, not the appointment said before); the holder stays open.
    if not new.slots & antecedent.slots:
        return new
    return dataclasses.replace(new.joined(antecedent), holder=new.holder)


def judge_supersession(
    new_text: str,
    candidates: Sequence[tuple[UUID, str, float] | Candidate],
    *,
    band: tuple[float, float] = DEFAULT_BAND,
    fact_conflicts: Collection[UUID] = frozenset(),
    replaced: Collection[UUID] = frozenset(),
    said_at: datetime | None = None,
    cue_set: SupersessionCues = DEFAULT_CUES,
) -> list[SupersessionDecision]:
    """The older memory `new_text` replaces, if any: the best-matching one (a chain's current
    head), plus others only when their functional fact conflicts too.

    candidates: older memories the user said (id, text, cosine to the new one, said_at).
    fact_conflicts: ids whose functional fact (same subject and relation, another object)
    conflicts with one of `new_text`'s, from the facts module. replaced: ids already replaced
    by another memory (their marker), which are history. said_at: when `new_text` was said
    (a statement about a year long past replaces nothing).
    """
    if _silent(new_text, cue_set, said_at):
        return []
    new = _read(cue_set, new_text)
    cued = _cued(new, new_text, cue_set)
    pool = [Candidate(*c) for c in candidates]
    read = {c.id: _read(cue_set, c.text) for c in pool}
    cued_by = {c.id: _cued(read[c.id], c.text, cue_set) for c in pool}
    merged = _with_antecedents(pool, read, cued_by)
    new = _with_own_antecedent(new_text, new, cued, pool, read, said_at)
    found: list[tuple[Candidate, SupersessionDecision]] = []
    for candidate in pool:
        old = read[candidate.id]
        # A conflicting fact still needs the same holder ("my nephew Tim" is not "my son Tim").
        is_fact = candidate.id in fact_conflicts and holders_agree(new, old)
        # "I lived in Munich before" is history already, whatever its facts say; an
        # elaboration ("With a club.") is the user's, replaced only by what the user says.
        if old.past or candidate.id in replaced or candidate.id in merged or (
                old.refers and not cued_by[candidate.id] and new.holder != SELF):
            continue
        if about_someone_named(new_text, candidate.text, new, old):
            continue
        reasons = _reasons(new, old, candidate.cosine, band, cued, cued_by[candidate.id])
        if reasons is None and not is_fact:
            continue
        reasons = (*(reasons or ()), *(("fact",) if is_fact else ()))
        kind = (SupersessionKind.CONTRADICTION if "polarity" in reasons
                else SupersessionKind.SUPERSEDES)
        penalty = old.refers and not cued_by[candidate.id]
        decision = SupersessionDecision(
            candidate.id, kind, _score(new, old, candidate.cosine, is_fact, penalty), reasons)
        found.append((candidate, decision))
    if not found:
        return []
    _, best = _head(found, read, cued_by)
    return [best] + [d for _, d in found if d is not best and d.replaces in fact_conflicts]
