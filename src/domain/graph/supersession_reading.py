"""Reading a statement for supersession: its content words, slots, holder, polarity and tense."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from memlane.domain.graph import supersession_cues as cues, supersession_slots as slots

SELF = "self"
OTHER = "other"  # someone named only by "its"/"ihr": a company, a club, a person
_WORD = re.compile(r"\w+")
# Relatives named in several ways are one holder ("mum" and "my mother").
_SAME_HOLDER = {"mum": "mother", "mom": "mother", "mama": "mother", "mutter": "mother",
                "dad": "father", "papa": "father", "vater": "father", "grandma": "grandmother",
                "oma": "grandmother", "grandpa": "grandfather", "opa": "grandfather",
                "husband": "partner", "wife": "partner", "frau": "partner", "mann": "partner"}
_NAME = re.compile(r"(?<![.!?]\s)(?<=\s)[A-ZÄÖÜ][a-zäöüß]+")
_OBJECT_SELF = re.compile(r"(?<!\w)(?:me|us|mich|mir|uns)(?!\w)")
# Someone else's relative: "Omar's brother", "Annas Schwester".
_OTHERS = re.compile(
    r"(?<!\w)\w+(?:'s|s) (?P<holder>brother|sister|mother|father|wife|husband|partner|son|"
    r"daughter|boss|bruder|schwester|mutter|vater|frau|mann|sohn|tochter|chef|chefin)(?!\w)"
)


@dataclass(frozen=True, slots=True)
class Reading:
    """What supersession needs from one statement."""

    words: frozenset[str]  # content words: no stopwords, cue words or holder nouns
    stems: frozenset[str]
    asserted: frozenset[str]  # stems minus the value a correction names as replaced
    names_old_value: bool  # "..., not March 3", "statt Resend": a correction by itself
    subject: str | None  # a first content word, the subject unless "I" is ("Tom" has...)
    slots: frozenset[str]
    strong_slots: frozenset[str]  # slots named by content words, not by change verbs
    holder: str | None  # SELF, another person ("sister"), or None when impersonal
    negative: bool
    past: bool  # "I lived in Munich before", "the meeting was on Monday": history already
    refines: bool  # "only", "not on Sundays": narrows rather than replaces
    refers: bool  # "It's called Boulderwelt": elaborates another statement
    names: bool  # it names someone or something by name ("Jana", "Dr. Okafor")


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
    anchors: tuple[str, ...] = cues.PAST_ANCHORS

    @cached_property
    def _patterns(self) -> dict[str, re.Pattern[str]]:
        lists = {
            "change": self.change, "negation": self.negation, "addition": self.addition,
            "continuity": self.continuity, "hedge": self.hedge, "past": self.past,
            "history": cues.HISTORY_CUES, "anchor": self.anchors, "adverb": cues.ADVERB_CUES,
            "state_change": cues.STATE_CHANGE_CUES,
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
        return {name: cues.compile_cues(words) for name, words in slots.SLOTS.items()}

    def has(self, family: str, text: str) -> bool:
        return self._patterns[family].search(_plain(text)) is not None

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

    def in_distant_past(self, text: str, said_year: int | None) -> bool:
        """Whether the statement speaks of a past that does not reach the present."""
        norm = _plain(text)
        if self._patterns["anchor"].search(norm) or cues.COUNTED_PAST.search(norm):
            return True
        if said_year is None:
            return False
        return any(int(year) < said_year - 1 for year in cues.PAST_YEAR.findall(norm))

    def read(self, text: str) -> Reading:
        norm = _plain(text)
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
        # What it asserts keeps the verbs that are also cues ("I am divorced", "married").
        said = cues.content_words(self._patterns["adverb"].sub(" ", plain))
        asserted = frozenset(cues.stem(w) for w in said) - {cues.stem(w) for w in named}
        first = _WORD.search(_without_leading_time(norm))
        holder = self._holder(_main_clause(norm), cues.POSSESSED.search(text) is not None)
        return Reading(
            words=frozenset(words),
            stems=stems,
            asserted=asserted,
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
            past=bool(self._patterns["history"].search(norm) or cues.TRAILING_BEFORE.search(norm)
                      or cues.PAST_STATE.search(norm)),
            refines=cues.REFINEMENT.search(norm) is not None,
            refers=cues.REFERRING.match(norm) is not None,
            names=_NAME.search(text.strip()[1:]) is not None,
        )

    def _slots_in(self, text: str) -> frozenset[str]:
        found = {name for name, pattern in self._slots.items() if pattern.search(text)}
        if slots.AGE_STATEMENT.search(text):
            found.add("age")
        return frozenset(found)

    def _holder(self, norm: str, possessed: bool = False) -> str | None:
        """Whom the statement is about: the first of "I/we", "my <relative>", "<Name>'s
        <relative>" it names ("Sarah and I broke up" is mine, "My brother turned 34, we're
        twins" my brother's)."""
        person = cues.FIRST_PERSON_SUBJECT.search(norm)
        owned = self._patterns["owned"].search(norm)
        other = _OTHERS.search(norm)
        third = cues.THIRD_PARTY.search(norm)
        found = [(m.start(), kind) for m, kind in ((person, "self"), (owned, "owned"),
                                                   (other, "other"), (third, "third"))
                 if m is not None]
        if possessed and person is None:
            found.append((-1, "third"))  # "Anna's party got moved": Anna's
        if not found:
            # "They made me a staff engineer", "the movers moved us to Sunday"; "the club
            # switched its runs" is the club's.
            if _OBJECT_SELF.search(norm):
                return SELF
            return OTHER if cues.THIRD_PARTY.search(norm) else None
        _, kind = min(found)
        if kind == "third":
            return OTHER
        if kind == "self" or (kind == "owned" and owned is not None and not owned["holder"]):
            return SELF
        noun = (owned["holder"] if kind == "owned" and owned is not None
                else other["holder"] if other is not None else None)
        return _SAME_HOLDER.get(noun or "", noun)


def _plain(text: str) -> str:
    """Normalised, with phrases that only look like cues taken out ("I'm used to it")."""
    norm = cues.normalise(text)
    return cues.NOW_THAT.sub("because", cues.NOT_HISTORY.sub("accustomed to", norm))


def _without_leading_time(norm: str) -> str:
    """'since last week nils has ...' -> 'nils has ...': the subject comes after the time."""
    return re.sub(r"^(?:since|seit|from|ab|as of|starting)\s+(?:\S+\s+){0,3}?(?=\S+\s+"
                  r"(?:has|have|is|was|hat|ist|lässt|wohnt|lives|works|arbeitet))", "", norm)


def _main_clause(norm: str) -> str:
    """The statement without a clause that only says when or why: whom it is about."""
    return cues.TRAILING_CLAUSE.sub("", cues.LEADING_CLAUSE.sub("", norm)) or norm
