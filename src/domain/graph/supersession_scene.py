"""Reading a new statement and its candidates once, for the rules and the learned judge."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from itertools import pairwise
from typing import NamedTuple
from uuid import UUID

from memlane.domain.graph import (
    supersession_cues as cues,
    supersession_people as people,
    supersession_tense as tense,
    supersession_voice as voice,
)
from memlane.domain.graph.supersession_reading import SELF, Reading, SupersessionCues
from memlane.domain.graph.supersession_topic import about_someone_named, handed_on
from memlane.domain.graph.supersession_words import normalise

# How soon after another statement a referring one ("It's called Boulderwelt") is read as
# pointing back at it.
ANTECEDENT_WINDOW = timedelta(hours=2)
# A subject pronoun that may stand for a thing said just before.
_THING_PRONOUN = re.compile(r"\s*(?:(?:it|it's|er|es|sie)(?!\w)|that's|(?:das|that|this)\s+"
                            r"(?:ist|war|wurde|wird|hat|is|was|has|got|will)(?!\w))")



class Candidate(NamedTuple):
    """An older memory the new one may replace: what the user said in it, its cosine to what
    the user says now, and when it was said (a chain's newest value is its current head)."""

    id: UUID
    text: str
    cosine: float
    said_at: datetime | None = None



@lru_cache(maxsize=1024)
def read_text(cue_set: SupersessionCues, text: str) -> Reading:
    # A pure reading of a text: the same older memories are candidates for many new ones.
    # (Held in this process only, like any plaintext the service opens.)
    return cue_set.read(text)


def silent(new_text: str, cue_set: SupersessionCues, said_at: datetime | None) -> bool:
    """Questions, hypotheticals, additions, "still"/"as I said" and the distant past
    replace nothing."""
    norm = normalise(new_text)
    # "Too" after a change that ends something says the change came again ("I sold the Golf
    # too"), not that a value was added.
    adds = (cue_set.has("addition", new_text) or bool(cues.TRAILING_ADDITION.search(norm))) and (
        not cue_set.has("ending", new_text))
    # A stay that ends by itself, or the old value said to stay, replaces nothing. (An episode
    # that brings a new thing, said as its subject, is a change: "New passport came today".)
    bounded = bool(voice.TEMPORARY.search(norm) or voice.KEPT.search(norm))
    return not new_text.strip() or cue_set.is_question(new_text) or adds or bounded or any(
        cue_set.has(family, new_text) for family in ("hedge", "continuity")
    ) or cue_set.in_distant_past(
        new_text, said_at.year if said_at else None
    ) or (bool(tense.EPISODE.search(norm)) and not cue_set.has("state_change", new_text)
          and not cue_set.has("ending", new_text) and not tense.STATE_NOW.search(norm)
          and not voice.RENEWED_SUBJECT.match(norm))


def cued(reading: Reading, text: str, cue_set: SupersessionCues) -> bool:
    """Whether a statement says a value changed: a correction naming the old value, change
    language, or a German future of a change ("werde ... ziehen")."""
    return reading.names_old_value or reading.ends or cue_set.has("change", text) or bool(
        tense.FUTURE_CHANGE.search(normalise(text)) or people.KIN_MOVED.search(normalise(text)))



def with_antecedents(pool: Sequence[Candidate], read: dict[UUID, Reading],
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


def with_own_antecedent(new_text: str, new: Reading, cued: bool, pool: Sequence[Candidate],
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


@dataclass(slots=True)
class Scene:
    """The new statement and its candidates, read once for the rules and the learned judge."""

    text: str
    new: Reading
    cued: bool
    pool: list[Candidate]
    read: dict[UUID, Reading]
    cued_by: dict[UUID, bool]
    merged: set[UUID]


def scene_of(new_text: str, candidates: Sequence[tuple[UUID, str, float] | Candidate],
             said_at: datetime | None, cue_set: SupersessionCues) -> Scene | None:
    """The reading of a statement and its candidates; None when it replaces nothing. What
    either reports of someone else's words is not read."""
    new_text = voice.unreported(new_text)
    if silent(new_text, cue_set, said_at):
        return None
    new = read_text(cue_set, new_text)
    said_change = cued(new, new_text, cue_set)
    pool = [Candidate(*c) for c in candidates]
    pool = [c._replace(text=voice.unreported(c.text)) for c in pool]
    read = {c.id: read_text(cue_set, c.text) for c in pool}
    cued_by = {c.id: cued(read[c.id], c.text, cue_set) for c in pool}
    merged = with_antecedents(pool, read, cued_by)
    new = with_own_antecedent(new_text, new, said_change, pool, read, said_at)
    return Scene(new_text, new, said_change, pool, read, cued_by, merged)


def may_replace(scene: Scene, candidate: Candidate, replaced: Collection[UUID]) -> bool:
    """Whether a candidate may be replaced at all: "I lived in Munich before" is history
    already, whatever its facts say; an elaboration ("With a club.") is the user's, replaced
    only by what the user says; what is said of someone the older one names is theirs."""
    old = scene.read[candidate.id]
    return not (old.past or candidate.id in replaced or candidate.id in scene.merged or (
        old.refers and not scene.cued_by[candidate.id] and scene.new.holder != SELF)
        or (about_someone_named(scene.text, candidate.text, scene.new, old)
            and not handed_on(scene.new, old)
            # (Unless the user ends the named thing: "Kroatien ist gestrichen", "Pepe died".)
            and not (scene.new.ends and scene.new.holder in (SELF, None))))


