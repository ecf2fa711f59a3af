"""Reading a statement for supersession: its content words, slots, holder, polarity and tense."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from functools import cached_property

from memlane.domain.graph import (
    supersession_cues as cues,
    supersession_lexicon as lexicon,
    supersession_people as people,
    supersession_slots as slots,
    supersession_tense as tense,
    supersession_voice as voice,
)
from memlane.domain.graph.supersession_words import compile_cues, content_words, normalise, stem
from memlane.domain.prefilter import Prefilter

SELF = "self"
OTHER = "other"  # someone named only by "its"/"ihr": a company, a club, a person
_WORD = re.compile(r"\w+")
# A year or a measured value ("2031", "5,4"), not a time of day or a count.
_FIGURE = re.compile(r"(?<![\w.,:])(?:(?:19|20)\d\d|\d+[.,]\d+)(?![\w.,:]*\w)")
_NUMBER_WORD = re.compile(rf"(?:{slots._NUMBER}|\d+(?:[.,]\d+)?)$")


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
    holder: str | None  # SELF, OTHER, a relative ("sister"), "name:<name>", None: impersonal
    negative: bool
    past: bool  # "I lived in Munich before", "the meeting was on Monday": history already
    refines: bool  # "only", "not on Sundays": narrows rather than replaces
    refers: bool  # "It's called Boulderwelt": elaborates another statement
    names: frozenset[str]  # whom or what it names by name ("jana", "okafor"), casefolded
    providers: frozenset[str]  # names it is with or went to: "bei der DKB", "to Dr. Albers"
    again: bool  # "pushed again", "schon wieder": a chain's next value
    number_only: bool  # "Jetzt sind es nur noch 79!": a new value of the last quantity said
    died: bool  # "Meine Oma ist gestorben": all that was said of her ends
    possessed: bool  # "Anna's party", "das Daily vom Designteam": someone else's thing
    # "He moved to York", "Sie wohnt jetzt in Köln", "I bought my son a bike": what a person
    # other than the user holds.
    third_person: bool = False
    # "I sold the Civic", "Den Kurs hab ich geschmissen", "Pepe ist gestorben": something ends.
    ends: bool = False
    # "We're not moving after all", "wir ziehen doch nicht nach Dortmund": no change happens.
    denied: bool = False
    # Names it goes to ("moved to Lisbon", "zur Techniker gewechselt"): the new value, where
    # another name it says may be the old one ("die AOK war mir zu teuer").
    destinations: frozenset[str] = frozenset()
    enters: bool = False  # "I qualified as ...", "got the keys": a new state entered
    companions: frozenset[str] = frozenset()  # "mit Hanna", "Hanna und ich": company
    # The kinds of value it names ("10 bis 18 Uhr": a time; "am 3. Juli": a date; "€ 40": an
    # amount): a new value replaces one of the same kind.
    shapes: frozenset[str] = frozenset()
    # The figures it names ("2031", "5,4"): a statement naming only figures the older one
    # names says the same value again ("Checked, passport's good till 2031").
    figures: frozenset[str] = frozenset()
    # Whom it says left a place another now takes ("Herr Faber ist in Rente, jetzt macht das
    # Frau Lutz"): what named them is replaced, whoever the sentence is about.
    departed: frozenset[str] = frozenset()
    # The old value it names ("nicht auf der Alm, sondern ...", "resigned as a special"): it
    # points at the statement that says it.
    old_value: frozenset[str] = frozenset()
    # Things it says are new ("New passport came", "Neuer Perso"): the one the user had is
    # replaced.
    renewed: frozenset[str] = frozenset()
    # The people it names by a kin or role word ("I take my son to swimming": "son").
    people: frozenset[str] = frozenset()
    # A person's thing said by "his"/"her"/"sein"/"ihr" ("his swimming is on Sunday now").
    theirs: bool = False
    # A state waiting for its end: a search, a waiting list, an application.
    pending: bool = False

    def joined(self, antecedent: Reading) -> Reading:
        """A referring statement read with the one it points back at ("It's called
        Boulderwelt" after "I switched to the climbing gym"): what it is about is theirs."""
        return dataclasses.replace(
            self, words=self.words | antecedent.words, stems=self.stems | antecedent.stems,
            slots=self.slots | antecedent.slots,
            strong_slots=self.strong_slots | antecedent.strong_slots,
            holder=self.holder or antecedent.holder, names=self.names | antecedent.names,
        )


@dataclass(frozen=True)
class SupersessionCues:
    """The cue lists (data, extendable); patterns are compiled once per instance."""

    change: tuple[str, ...] = cues.CHANGE_CUES
    negation: tuple[str, ...] = cues.NEGATION_CUES
    addition: tuple[str, ...] = cues.ADDITION_CUES
    continuity: tuple[str, ...] = cues.CONTINUITY_CUES
    hedge: tuple[str, ...] = cues.HEDGE_CUES
    past: tuple[str, ...] = cues.PAST_CUES
    holders: tuple[str, ...] = people.HOLDER_NOUNS
    anchors: tuple[str, ...] = tense.PAST_ANCHORS

    @cached_property
    def _patterns(self) -> dict[str, re.Pattern[str]]:
        lists = {
            "change": self.change, "negation": self.negation, "addition": self.addition,
            "continuity": self.continuity, "hedge": self.hedge, "past": self.past,
            "history": cues.HISTORY_CUES, "anchor": self.anchors, "adverb": cues.ADVERB_CUES,
            "state_change": tense.STATE_CHANGE_CUES, "ending": tense.ENDING_CUES,
            "entry": tense.ENTRY_CUES,
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
        patterns = {name: compile_cues(phrases) for name, phrases in lists.items()}
        holder = patterns["holder"].pattern.removeprefix(r"(?<!\w)")
        patterns["owned"] = re.compile(
            rf"(?<!\w){people.POSSESSIVE}\s+(?:\w+\s+)?(?P<holder>{holder})"
            rf"|(?<!\w){people.POSSESSIVE}(?!\w)"
        )
        # A thing got for someone else ("Ich habe meiner Mutter einen Tesla gekauft", "I
        # bought my son a bike"): theirs, not the user's.
        patterns["recipient"] = re.compile(
            rf"(?<!\w)(?:meiner|meinem|unserer|unserem)\s+(?:\w+\s+)?(?:{holder})"
            r".*(?:gekauft|geschenkt|besorgt|bestellt|geholt|geholfen)"
            rf"|(?<!\w)(?:bought|got|gave|ordered|gifted)\s+(?:my|our)\s+(?:\w+\s+)?(?:{holder})"
            r"\s+(?:a|an|the|some|his|her|their)(?!\w)"
            rf"|(?<!\w)helped\s+(?:my|our)\s+(?:\w+\s+)?(?:{holder})"
            # A German genitive: "die neue Wohnung meiner Schwester" is the sister's (unless
            # the user goes on about themselves: "..., ich heiße jetzt Berger").
            rf"|(?<!\w)(?:der|die|das|den|dem)\s+(?:\w+\s+)?\w+\s+(?:meiner|meines|unserer|"
            rf"unseres)\s+(?:\w+\s+)?(?:{holder})(?!\w)(?!.*,\s*(?:\w+\s+)?(?:ich|wir)\s)"
        )
        return patterns

    @cached_property
    def _slots(self) -> dict[str, re.Pattern[str]]:
        return {name: compile_cues(words) for name, words in lexicon.SLOTS.items()}

    @cached_property
    def _slot_filter(self) -> tuple[list[str], Prefilter]:
        # A slot's words are searched for only in a text holding one (domain/prefilter.py).
        return list(self._slots), Prefilter(list(self._slots.values()))

    def has(self, family: str, text: str) -> bool:
        return self._patterns[family].search(plain(text)) is not None

    def is_question(self, text: str) -> bool:
        """A question mark, or a question word first ("Should I switch to Bosch")."""
        rest = normalise(text).strip()
        if rest.endswith("?"):
            return True
        # "Actually, can you..." asks; "Eigentlich ist das Meeting..." (German verb second)
        # does not: an opener is skipped only when a comma closes it.
        while (opener := self._patterns["opener"].match(rest)) and rest[opener.end():][:1] == ",":
            rest = rest[opener.end() + 1:].lstrip()
        starter = self._patterns["starter"].match(rest)
        # Spoken German drops the subject of a statement ("Sind per 1. Mai nach Bern
        # gezogen", "Ist jetzt erledigt"): "ist"/"sind" ask only before whom they ask about.
        return starter is not None and not (
            starter[0] in ("ist", "sind") and not cues.ASKED_ABOUT.match(rest[starter.end():]))

    def in_distant_past(self, text: str, said_year: int | None) -> bool:
        """Whether the statement speaks of a past that does not reach the present."""
        norm = plain(text)
        if self._patterns["anchor"].search(norm) or tense.COUNTED_PAST.search(norm):
            return True
        if said_year is None:
            return False
        return any(int(year) < said_year - 1 for year in tense.PAST_YEAR.findall(norm))

    def read(self, text: str) -> Reading:
        norm = plain(text)
        named: set[str] = set()
        unnamed = norm
        for pattern in cues.CONTRASTIVE_NEGATION:
            named.update(w for m in pattern.finditer(norm) for w in content_words(m["named"]))
            unnamed = pattern.sub(" ", unnamed)
        for match in cues.CONTRAST.finditer(norm):
            named.update(content_words(match["named"])[:1])
        content_text = self._patterns["not_content"].sub(" ", norm)
        words = content_words(content_text)
        # What it asserts keeps the verbs that are also cues ("I am divorced", "married").
        said = content_words(self._patterns["adverb"].sub(" ", unnamed))
        # The first content word, past "my friend" ("My friend Jonas moved": Jonas).
        first = next((w for w in _WORD.findall(slots.LEADING_TIME_SUBJECT.sub("", norm))
                      if w in words or w.isdigit()), None)
        first = first if first in words else None
        holder = self._holder(text, main_clause(norm))
        main = slots.slot_text(main_clause(norm))
        found_slots = self._slots_in(main)
        return Reading(
            words=frozenset(words),
            stems=frozenset(stem(w) for w in words),
            asserted=frozenset(stem(w) for w in said) - {stem(w) for w in named},
            names_old_value=bool(named),
            # With "I"/"ich" in the sentence a fronted word is the object: "Werder verfolge
            # ich nicht mehr".
            subject=stem(first) if first and holder != SELF else None,
            slots=found_slots,
            strong_slots=self._slots_in(self._patterns["not_content"].sub(" ", main)),
            holder=holder,
            negative=bool(self._patterns["negation"].search(unnamed)
                          or cues.CONTRACTED_NEGATION.search(unnamed)),
            past=bool(self._patterns["history"].search(norm) or cues.TRAILING_BEFORE.search(norm)
                      # (Of the main clause: "since I was a kid" only dates it; a reason in
                      # the past beside a present state is no history: "Frau Lutz war zu
                      # teuer, ich bin beim Lohnsteuerhilfeverein".)
                      or (tense.PAST_STATE.search(main_clause(norm)) is not None
                          and not tense.PRESENT_SELF.search(norm)
                          and not tense.LATEST.search(norm))),
            refines=cues.REFINEMENT.search(norm) is not None,
            refers=cues.REFERRING.match(norm) is not None,
            names=people.names_in(text.strip()) | people.opening_name(text),
            providers=frozenset(m["name"].casefold() for m in slots.PROVIDER.finditer(text)),
            again=tense.AGAIN.search(norm) is not None,
            number_only=bool(words) and all(_NUMBER_WORD.match(w) for w in words),
            died=people.DEATH.search(norm) is not None,
            possessed=people.POSSESSED.search(text) is not None
            or people.NAMED_OWN.match(text.strip()) is not None,
            shapes=slots.shapes(norm),
            third_person=people.third_person(norm, found_slots)
            or self._patterns["recipient"].search(norm) is not None,
            ends=self._patterns["ending"].search(norm) is not None,
            denied=tense.DENIED_CHANGE.search(norm) is not None,
            destinations=frozenset(m[1] for m in slots.DESTINATION.finditer(norm)),
            enters=self._patterns["entry"].search(norm) is not None,
            companions=slots.companions(norm),
            figures=frozenset(_FIGURE.findall(norm)),
            departed=voice.departed(text),
            old_value=frozenset(stem(w) for w in named),
            renewed=frozenset(stem(w) for w in voice.renewed(norm, self._patterns["holder"])),
            people=frozenset(people.SAME_HOLDER.get(m[0], m[0])
                             for m in self._patterns["holder"].finditer(norm)),
            theirs=people.PERSONS_THING.search(norm) is not None,
            pending=voice.PENDING.search(norm) is not None,
        )

    def _slots_in(self, text: str) -> frozenset[str]:
        names, prefilter = self._slot_filter
        found = {names[i] for i in prefilter.candidates(text) if self._slots[names[i]].search(text)}
        if slots.AGE_STATEMENT.search(text):
            found.add("age")
        # A relative moved somewhere by the user: their home.
        if people.KIN_MOVED.search(text):
            found.add("residence")
        return frozenset(found)

    def holder(self, text: str) -> str | None:
        """Whom the statement is about (`_holder`), read on its own."""
        return self._holder(text, main_clause(plain(text)))

    def _holder(self, text: str, norm: str) -> str | None:
        """Whom the statement is about: the first of "I/we", "my <relative>", "<Name>'s
        <relative>", a name or a kin word opening it ("Sarah and I broke up" is mine, "My
        brother turned 34, we're twins" my brother's, "Grandpa turned 90" grandpa's)."""
        main = main_clause(text.strip(), re.IGNORECASE)
        if people.VENUE_HAS.match(norm):
            return OTHER
        if moved := people.KIN_MOVED.search(norm):
            kin = moved["kin"] or moved["kind"]
            return people.SAME_HOLDER.get(kin, kin)
        if people.WITH_USER.search(norm):
            return SELF
        if slots.ROLE_ACTING.match(norm) and not people.THIRD_PARTY.search(norm):
            return None
        # A relative's own people are theirs: "Mum's neighbour moved" is the neighbour's news.
        if people.KIN_NAMES.match(norm) and (theirs := people.OTHERS.match(norm)):
            return people.SAME_HOLDER.get(theirs["holder"], theirs["holder"])
        if kin := people.KIN_NAMES.match(norm):
            return people.SAME_HOLDER.get(kin[0], kin[0])
        if relatives := people.THE_RELATIVES.match(norm) or people.DEFINITE_PEOPLE.match(norm):
            return people.SAME_HOLDER.get(relatives["holder"], relatives["holder"])
        if (known := people.APPOSITION.match(text.strip())) and not self._patterns[
                "holder"].fullmatch(role := (known["noun"] or known["nomen"]).casefold()):
            return role
        if people.PRONOUN_SUBJECT.match(norm):
            return None
        person = people.FIRST_PERSON_SUBJECT.search(norm)
        owned = self._patterns["owned"].search(norm)
        other = people.OTHERS.search(norm)
        third = people.THIRD_PARTY.search(norm)
        # Someone named opening a statement that says nothing of the user ("Nils has been
        # growing a beard", "Oslo has changed so much"; not "Mehmet sold the café, I'm
        # looking for work now").
        mine = person or owned or other or people.OBJECT_SELF.search(norm)
        if not mine and "," not in main and (name := people.named_subject(main)):
            return people.named_holder(name)
        if not mine and people.VENUE_SUBJECT.match(norm):
            return OTHER
        found = [(m.start(), kind) for m, kind in ((person, "self"), (owned, "owned"),
                                                   (other, "other"), (third, "third"))
                 if m is not None]
        possessed = people.POSSESSED.search(text)
        if possessed and person is None and other is None:
            # "Anna's party got moved", "das Daily vom Designteam": theirs.
            owner = possessed["name"] or possessed["team"] or possessed["group"]
            return people.named_holder(owner.casefold())
        if not found:
            # "They made me a staff engineer", "the movers moved us to Sunday".
            return SELF if people.OBJECT_SELF.search(norm) else None
        _, kind = min(found)
        if kind == "third":
            return OTHER
        if kind == "self" or (kind == "owned" and owned is not None and not owned["holder"]):
            return SELF
        noun = (owned["holder"] if kind == "owned" and owned is not None
                else other["holder"] if other is not None else None)
        return people.SAME_HOLDER.get(noun or "", noun)


def plain(text: str) -> str:
    """Normalised, with phrases that only look like cues taken out ("I'm used to it", "moved
    to another team", a clause opened by "also": German "so")."""
    norm = normalise(text)
    norm = tense.NOW_THAT.sub("because", tense.NOT_HISTORY.sub("accustomed to", norm))
    norm = tense.FREE_OF.sub(" no longer", norm)
    norm = voice.NEGATIVE_IDIOM.sub(" ", norm)
    norm = re.sub(r"(?<=\bto |in |zu )(?:another|ein anderes|eine andere|einen anderen)\b",
                  "a different", norm)
    return re.sub(r"(?:^|(?<=[,;:]))\s*also\b", " ", norm)


def main_clause(text: str, flags: int = 0) -> str:
    """The statement without a clause that only says when or why: whom it is about."""
    leading = re.compile(tense.LEADING_CLAUSE.pattern, flags)
    trailing = re.compile(tense.TRAILING_CLAUSE.pattern, flags)
    return trailing.sub("", leading.sub("", text)) or text
