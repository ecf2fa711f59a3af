"""Supersession: whether a new memory replaces what an older one said (no LLM call)."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property, lru_cache
from uuid import UUID

from memlane.domain.graph import supersession_cues as cues

# Cosine band (all-MiniLM-L6-v2) in which an older memory can be the one replaced; the floor
# is calibrated on bench/data/supersession_scenarios.jsonl (docs/supersession.md). No ceiling
# below 1: "meets on Wednesdays from now on" is 0.92 to "meets on Thursdays", above the 0.85
# merge threshold, so a restatement is told from a correction by its words, not its cosine.
DEFAULT_BAND = (0.35, 1.0)
SELF = "self"
_WORD = re.compile(r"\w+")


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


@dataclass(frozen=True, slots=True)
class _Reading:
    words: frozenset[str]  # content words: no stopwords, cue words or holder nouns
    stems: frozenset[str]
    asserted: frozenset[str]  # stems minus the value a correction names as replaced
    names_old_value: bool  # "..., not March 3", "statt Resend": a correction by itself
    subject: str | None  # a first content word, the subject unless "I" is ("Tom" has...)
    slots: frozenset[str]
    strong_slots: frozenset[str]  # slots named by content words, not by change verbs
    holder: str | None  # SELF, another person ("sister"), or None when impersonal
    negative: bool
    past: bool  # "I lived in Munich before": history already, never replaced


@dataclass(frozen=True)
class SupersessionCues:
    """The cue lists (data, extendable); patterns are compiled once per instance."""

    change: tuple[str, ...] = cues.CHANGE_CUES
    negation: tuple[str, ...] = cues.NEGATION_CUES
    addition: tuple[str, ...] = cues.ADDITION_CUES
    continuity: tuple[str, ...] = cues.CONTINUITY_CUES
    hedge: tuple[str, ...] = cues.HEDGE_CUES
    past: tuple[str, ...] = cues.PAST_CUES
    holders: tuple[str, ...] = cues.HOLDER_NOUNS

    @cached_property
    def _patterns(self) -> dict[str, re.Pattern[str]]:
        lists = {
            "change": self.change, "negation": self.negation, "addition": self.addition,
            "continuity": self.continuity, "hedge": self.hedge, "past": self.past,
            "history": cues.HISTORY_CUES,
            "opener": cues.DISCOURSE_OPENERS, "starter": cues.QUESTION_STARTERS,
            "holder": self.holders,
            # Everything that is a cue rather than a topic, removed before content is read;
            # a gap cue only by its ends ("keinen Kaffee mehr" is still about Kaffee).
            "not_content": tuple(
                part
                for phrase in self.change + self.negation + self.addition + self.continuity
                + self.hedge + self.past + cues.DISCOURSE_OPENERS + self.holders
                for part in phrase.split(" ~ ")
            ),
        }
        patterns = {name: cues.compile_cues(phrases) for name, phrases in lists.items()}
        holder = patterns["holder"].pattern.removeprefix(r"(?<!\w)")
        patterns["owned"] = re.compile(
            rf"(?<!\w){cues.POSSESSIVE}\s+(?:\w+\s+)?(?P<holder>{holder})"
            rf"|(?<!\w){cues.POSSESSIVE}(?!\w)"
        )
        return patterns

    @cached_property
    def _slots(self) -> dict[str, re.Pattern[str]]:
        return {name: cues.compile_cues(words) for name, words in cues.SLOTS.items()}

    def has(self, family: str, text: str) -> bool:
        return self._patterns[family].search(cues.normalise(text)) is not None

    def is_question(self, text: str) -> bool:
        """A question mark, or a question word first ("Should I switch to Bosch")."""
        rest = cues.normalise(text).strip()
        if rest.endswith("?"):
            return True
        # "Actually, can you..." asks; "Eigentlich ist das Meeting..." (German verb second)
        # does not: an opener is skipped only when a comma closes it.
        while (opener := self._patterns["opener"].match(rest)) and rest[opener.end():][:1] == ",":
            rest = rest[opener.end() + 1:].lstrip()
        return self._patterns["starter"].match(rest) is not None

    def read(self, text: str) -> _Reading:
        norm = cues.normalise(text)
        named: set[str] = set()
        plain = norm
        for pattern in cues.CONTRASTIVE_NEGATION:
            named.update(w for m in pattern.finditer(norm) for w in cues.content_words(m["named"]))
            plain = pattern.sub(" ", plain)
        for match in cues.CONTRAST.finditer(norm):
            named.update(cues.content_words(match["named"])[:1])
        content_text = self._patterns["not_content"].sub(" ", norm)
        words = cues.content_words(content_text)
        stems = frozenset(cues.stem(w) for w in words)
        first = _WORD.search(norm)
        holder = self._holder(norm)
        return _Reading(
            words=frozenset(words),
            stems=stems,
            asserted=stems - {cues.stem(w) for w in named},
            names_old_value=bool(named),
            # With "I"/"ich" in the sentence a fronted word is the object: "Werder verfolge
            # ich nicht mehr".
            subject=cues.stem(first[0]) if first and first[0] in words and holder != SELF else None,
            slots=self._slots_in(norm),
            strong_slots=self._slots_in(content_text),
            holder=holder,
            negative=bool(
                self._patterns["negation"].search(plain) or cues.CONTRACTED_NEGATION.search(plain)
            ),
            past=bool(self._patterns["history"].search(norm) or cues.TRAILING_BEFORE.search(norm)),
        )

    def _slots_in(self, text: str) -> frozenset[str]:
        return frozenset(name for name, pattern in self._slots.items() if pattern.search(text))

    def _holder(self, norm: str) -> str | None:
        # "Sarah and I broke up" is about me even though Sarah comes first.
        if cues.FIRST_PERSON_SUBJECT.search(norm):
            return SELF
        owned = self._patterns["owned"].search(norm)
        return None if owned is None else owned["holder"] or SELF


DEFAULT_CUES = SupersessionCues()


def asks_about_past(query: str, cue_set: SupersessionCues = DEFAULT_CUES) -> bool:
    """Whether a query asks what used to be true, so superseded memories may be shown."""
    return cue_set.has("past", query)


def _holders_agree(new: _Reading, old: _Reading) -> bool:
    if new.holder is None or old.holder is None or new.holder == old.holder:
        return True
    # "I have a new boss" can replace "my boss is Thomas"; "my sister moved" never replaces
    # "I live in Berlin".
    return new.holder == SELF and (old.holder in new.words or bool(new.stems & old.stems))


def _shared_words(new: _Reading, old: _Reading) -> set[str]:
    # German puts the head of a compound last: "Feier" is the "Geburtstagsfeier".
    compounds = {
        cues.stem(short)
        for one, other in ((new.words, old.words), (old.words, new.words))
        for short in one
        if len(short) >= 4 and any(len(long) >= len(short) + 3 and long.endswith(short)
                                   for long in other)
    }
    return set(new.stems & old.stems) | compounds


def _same_topic(new: _Reading, old: _Reading) -> bool:
    if new.slots & old.slots & cues.SINGLE_VALUED_SLOTS:
        return True
    # Different attributes, whatever names they share ("Lena is my girlfriend" / "Lena works
    # as a doctor now").
    if new.strong_slots and old.strong_slots and not new.strong_slots & old.strong_slots:
        return False
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


def _reasons(
    new: _Reading, old: _Reading, cosine: float, band: tuple[float, float], cued: bool
) -> tuple[str, ...] | None:
    """Why `new` replaces `old`, or None when it does not."""
    low, high = band
    if not low <= cosine <= high or not _holders_agree(new, old) or not _same_topic(new, old):
        return None
    flip = new.negative != old.negative and bool(new.stems & old.stems)
    # A restatement asserts the same; anything else may replace ("Jan moved away, my partner is
    # now Mira" still names Jan). When the new one only adds, replacing loses nothing.
    replaced = old.asserted != new.asserted
    if not (flip or (cued and replaced)):
        return None
    found = (("cue", cued), ("polarity", flip), ("replaced", replaced))
    return tuple(r for r, present in found if present) + tuple(
        f"slot:{slot}" for slot in sorted(new.slots & old.slots)
    )


@lru_cache(maxsize=1024)
def _read(cue_set: SupersessionCues, text: str) -> _Reading:
    # A pure reading of a text: the same older memories are candidates for many new ones.
    # (Held in this process only, like any plaintext the service opens.)
    return cue_set.read(text)


def judge_supersession(
    new_text: str,
    candidates: Sequence[tuple[UUID, str, float]],
    *,
    band: tuple[float, float] = DEFAULT_BAND,
    fact_conflicts: Collection[UUID] = frozenset(),
    cue_set: SupersessionCues = DEFAULT_CUES,
) -> list[SupersessionDecision]:
    """The older memory `new_text` replaces, if any: the best-matching one, plus others only
    when their functional fact conflicts too (the same slot said twice).

    candidates: (id, plaintext, cosine to the new memory), the write's nearest neighbours.
    fact_conflicts: ids whose functional fact (same subject and relation, another object)
    conflicts with one of `new_text`'s, from the facts module.
    """
    # Questions, hypotheticals, additions and "still"/"as I said" replace nothing.
    if not new_text.strip() or cue_set.is_question(new_text) or any(
        cue_set.has(family, new_text) for family in ("hedge", "addition", "continuity")
    ) or cues.TRAILING_ADDITION.search(cues.normalise(new_text)):
        return []
    new = _read(cue_set, new_text)
    cued = new.names_old_value or cue_set.has("change", new_text)
    found: list[SupersessionDecision] = []
    for memory_id, text, cosine in candidates:
        old = _read(cue_set, text)
        is_fact = memory_id in fact_conflicts
        reasons = None if old.past else _reasons(new, old, cosine, band, cued)
        # "I lived in Munich before" is history already, whatever its facts say.
        if old.past or (reasons is None and not is_fact):
            continue
        reasons = (*(reasons or ()), *(("fact",) if is_fact else ()))
        flipped = "polarity" in reasons
        kind = SupersessionKind.CONTRADICTION if flipped else SupersessionKind.SUPERSEDES
        score = cosine + 0.1 * len(new.slots & old.slots) + 0.5 * is_fact
        score += 0.05 * min(len(_shared_words(new, old)), 4)
        found.append(SupersessionDecision(memory_id, kind, round(score, 4), reasons))
    if not found:
        return []
    best = max(found, key=lambda decision: decision.score)
    return [best] + [d for d in found if d is not best and d.replaces in fact_conflicts]
