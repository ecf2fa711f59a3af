"""Supersession: whether a new memory replaces what an older one said (no LLM call)."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from functools import lru_cache
from typing import NamedTuple
from uuid import UUID

from memlane.domain.graph import supersession_cues as cues, supersession_slots as slots
from memlane.domain.graph.supersession_reading import OTHER, SELF, Reading, SupersessionCues

__all__ = [
    "DEFAULT_BAND", "DEFAULT_CUES", "Candidate", "SupersessionCues", "SupersessionDecision",
    "SupersessionKind", "asks_about_past", "judge_supersession",
]

# Cosine band (all-MiniLM-L6-v2, between what the user said in each) in which an older memory
# can be the one replaced; calibrated on bench/data/supersession_scenarios.jsonl
# (docs/supersession.md). No ceiling below 1: "meets on Wednesdays from now on" is 0.92 to
# "meets on Thursdays", above the 0.85 merge threshold, so a restatement is told from a
# correction by its words, not its cosine.
DEFAULT_BAND = (0.35, 1.0)
# What a shared slot weighs when candidates compete: one that holds a single value (home, job)
# says more about being the same thing than a shared word.
_SINGLE_SLOT_WEIGHT = 0.25
_SLOT_WEIGHT = 0.1
_REFERRING_PENALTY = 0.3


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


def _holders_agree(new: Reading, old: Reading) -> bool:
    if new.holder == old.holder:
        return True
    # What the user said about themselves is not replaced by what a third party did with its
    # own things: "The bus company changed its logo" leaves "I take the bus" standing.
    if old.holder == SELF and new.holder == OTHER:
        return False
    if new.holder is None or old.holder is None:
        return True
    # "I have a new boss" can replace "my boss is Thomas"; "my sister moved" never replaces
    # "I live in Berlin".
    return new.holder == SELF and (old.holder in new.words or bool(new.stems & old.stems))


def _shared_words(new: Reading, old: Reading) -> set[str]:
    # German puts the head of a compound last: "Feier" is the "Geburtstagsfeier".
    compounds = {
        cues.stem(short)
        for one, other in ((new.words, old.words), (old.words, new.words))
        for short in one
        if len(short) >= 4 and any(len(long) >= len(short) + 3 and long.endswith(short)
                                   for long in other)
    }
    return set(new.stems & old.stems) | compounds


def _same_topic(new: Reading, old: Reading) -> bool:
    if new.slots & old.slots & slots.SINGLE_VALUED_SLOTS:
        return True
    # Different attributes, whatever names they share ("Lena is my girlfriend" / "Lena works
    # as a doctor now").
    if new.strong_slots and old.strong_slots and not new.strong_slots & old.strong_slots:
        return False
    # The same person of the user's, named anew: "our babysitter is Jana" / "...has been
    # Maya" (both name someone; "my son helps out" is another matter).
    if (new.holder == old.holder and new.holder not in (None, SELF, OTHER)
            and new.names and old.names):
        return True
    shared = _shared_words(new, old)
    if new.slots & old.slots:  # the same kind of thing, named in both ("the standup")
        return bool(shared)
    # Else a shared subject alone is one entity's two facts ("Tom is our designer" / "Tom now
    # has a puppy"): what is said about it must be shared too. When both name kinds of thing
    # and none is shared, one shared word is not enough: "I moved to Lisbon" does not replace
    # "I'm looking for flights to Lisbon" (a move and a trip share only the place), where
    # "we moved the app from Heroku to Hetzner" does replace "we host the app on Heroku".
    said = shared - {new.subject}
    return len(said) >= (2 if new.slots and old.slots else 1)


def _about_someone_named(new_text: str, old_text: str, new: Reading, old: Reading) -> bool:
    """Whether the new statement is about a person or place the older one names ("Nils has
    been growing a beard" after "My partner is called Nils"): then it says something about
    them, and what the user said about themselves stands. "Tanja and I are no longer
    together" is about the user too."""
    found = cues.NAMED_SUBJECT.match(new_text.strip())
    if found is None:
        return False
    name = found["name"]
    named_in_old = re.search(rf"(?<=\S )(?:\w+ )*?{re.escape(name)}\b", old_text) is not None
    with_user = re.match(rf"{re.escape(name)} (?:and|und) (?:I|ich)\b", new_text.strip())
    # Unless both speak of the same attribute: "Isla turned ten" / "my daughter Isla is 9".
    return named_in_old and with_user is None and not new.slots & old.slots


def _flips(new: Reading, old: Reading) -> bool:
    """A polarity flip on what the older statement asserted ("I love coffee" / "I don't drink
    coffee anymore"): not on a verb alone ("I never work on Sundays"), not a refinement."""
    if new.negative == old.negative or (new.negative and new.refines):
        return False
    return bool((new.stems & old.stems) - cues.COMMON_VERB_STEMS)


def _reasons(
    new: Reading, old: Reading, cosine: float, band: tuple[float, float], cued: bool
) -> tuple[str, ...] | None:
    """Why `new` replaces `old`, or None when it does not."""
    low, high = band
    if not low <= cosine <= high or not _holders_agree(new, old) or not _same_topic(new, old):
        return None
    flip = _flips(new, old)
    # A restatement asserts the same; anything else may replace ("Jan moved away, my partner is
    # now Mira" still names Jan). When the new one only adds, replacing loses nothing.
    replaced = old.asserted != new.asserted
    if not (flip or (cued and replaced)):
        return None
    found = (("cue", cued), ("polarity", flip), ("replaced", replaced))
    return tuple(r for r, present in found if present) + tuple(
        f"slot:{slot}" for slot in sorted(new.slots & old.slots)
    )


def _score(new: Reading, old: Reading, cosine: float, is_fact: bool) -> float:
    shared = new.slots & old.slots
    single = len(shared & slots.SINGLE_VALUED_SLOTS)
    score = cosine + _SINGLE_SLOT_WEIGHT * single + _SLOT_WEIGHT * (len(shared) - single)
    score += 0.1 * min(len(_shared_words(new, old)), 4) + 0.5 * is_fact
    return round(score - _REFERRING_PENALTY * old.refers, 4)


@lru_cache(maxsize=1024)
def _read(cue_set: SupersessionCues, text: str) -> Reading:
    # A pure reading of a text: the same older memories are candidates for many new ones.
    # (Held in this process only, like any plaintext the service opens.)
    return cue_set.read(text)


def _silent(new_text: str, cue_set: SupersessionCues, said_at: datetime | None) -> bool:
    """Questions, hypotheticals, additions, "still"/"as I said" and the distant past
    replace nothing."""
    norm = cues.normalise(new_text)
    return not new_text.strip() or cue_set.is_question(new_text) or any(
        cue_set.has(family, new_text) for family in ("hedge", "addition", "continuity")
    ) or bool(cues.TRAILING_ADDITION.search(norm)) or cue_set.in_distant_past(
        new_text, said_at.year if said_at else None
    ) or (bool(cues.EPISODE.search(norm)) and not cue_set.has("state_change", new_text))


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
        and not read[c.id].refers
        and _reasons(read[c.id], best_reading, 1.0, (-1.0, 1.0), cued[c.id]) is not None
    ]
    return max(newer, key=lambda pair: pair[0].said_at or datetime.min) if newer else (
        best_candidate, best)


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
    cued = new.names_old_value or cue_set.has("change", new_text)
    found: list[tuple[Candidate, SupersessionDecision]] = []
    read: dict[UUID, Reading] = {}
    cued_by: dict[UUID, bool] = {}
    for candidate in (Candidate(*c) for c in candidates):
        old = read.setdefault(candidate.id, _read(cue_set, candidate.text))
        cued_by[candidate.id] = old.names_old_value or cue_set.has("change", candidate.text)
        # A conflicting fact still needs the same holder ("my nephew Tim" is not "my son Tim").
        is_fact = candidate.id in fact_conflicts and _holders_agree(new, old)
        # "I lived in Munich before" is history already, whatever its facts say; an
        # elaboration ("With a club.") is the user's, replaced only by what the user says.
        if old.past or candidate.id in replaced or (old.refers and new.holder != SELF):
            continue
        if _about_someone_named(new_text, candidate.text, new, old):
            continue
        reasons = _reasons(new, old, candidate.cosine, band, cued)
        if reasons is None and not is_fact:
            continue
        reasons = (*(reasons or ()), *(("fact",) if is_fact else ()))
        kind = (SupersessionKind.CONTRADICTION if "polarity" in reasons
                else SupersessionKind.SUPERSEDES)
        decision = SupersessionDecision(candidate.id, kind,
                                        _score(new, old, candidate.cosine, is_fact), reasons)
        found.append((candidate, decision))
    if not found:
        return []
    _, best = _head(found, read, cued_by)
    return [best] + [d for _, d in found if d is not best and d.replaces in fact_conflicts]
