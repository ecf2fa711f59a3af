"""Further readings of a clause, so one pattern covers a construction in every word order.

The patterns are written for a main clause with the user as its subject, said positively.
Three constructions say the same facts otherwise, and each gets a reading in that form:

- a German subordinate clause puts its verb last: "Weil ich in Hamburg wohne, ..." is read
  "ich wohne in Hamburg" (verb second);
- a relative as the subject: "My sister Lena lives in Vienna", "Mein Vater wohnt in Linz"
  are read "I live in Vienna" / "ich wohne in Linz", and the facts found are the relative's
  (their name, else their role in English), for the relations a relative has of their own;
- a state that ended: "I'm not at Google anymore", "Ich bin keine Veganerin mehr" are read
  without the negation, and the state facts found come back negated (they end the old fact).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memlane.domain.facts.patterns.kin import RELATIVES
from memlane.domain.facts.patterns.names import N
from memlane.domain.facts.rules import ENDED_STATES

# What a relative has of their own (issue 23 label decisions): every relative's home, and a
# partner's job too.
RELATIVE_RELATIONS = frozenset({"lives_in"})
PARTNER_RELATIONS = frozenset({"lives_in", "works_at", "works_as"})


@dataclass(frozen=True, slots=True)
class Reading:
    """A clause as the patterns should read it, and what its facts then are."""

    text: str
    subject: str | None = None  # the relative the facts are about
    negated: bool = False  # the facts ended
    relations: frozenset[str] | None = None  # only these relations are kept


_SUBORDINATE_DE = re.compile(
    # Adverbial clauses only: a "dass" clause hangs on a verb of saying, hoping or promising
    # ("Ich verspreche dir, dass ich pünktlich bin"), which states nothing yet.
    r"(?:^|[,;]\s*)(?:weil|da|seit|seitdem|obwohl|nachdem|zumal|wo|sodass)\s+"
    r"(?P<who>ich|wir)\s+(?P<mid>[^,;]+?)\s+"
    r"(?P<verb>bin|habe|sind|haben|mag|kann|muss|will|darf|[a-zäöüß]{2,}en?)"
    r"(?=\s*(?:[,;.!]|$))",
    re.IGNORECASE,
)
_PETS = frozenset({"dog", "cat", "hund", "katze", "kater"})
_KIN = "|".join(sorted((k for k in RELATIVES if k not in _PETS), key=len, reverse=True))
_ADJECTIVES = (r"(?:(?:little|big|older|younger|baby|eldest|oldest|youngest|twin|step|half|"
               r"kleine[rn]?|große[rn]?|ältere[rn]?|jüngere[rn]?) )?")
_RELATIVE_EN = re.compile(
    rf"^(?:my|our) {_ADJECTIVES}(?P<rel>{_KIN})(?:,? (?P<name>{N}),?)?(?: (?P<verb>lives|works|is|"
    r"has been|teaches|comes|moved|just moved|recently moved|has moved|has just moved)|"
    r"(?P<clitic>'s been|'s))\b(?P<rest>.*)$",
    re.IGNORECASE,
)
_RELATIVE_DE = re.compile(
    rf"^(?:mein|meine|unser|unsere) {_ADJECTIVES}(?P<rel>{_KIN})(?: (?P<name>{N}))?,? "
    r"(?P<verb>wohnt|lebt|arbeitet|ist|hat|kommt|stammt|unterrichtet|jobbt)\b(?P<clitic>)"
    r"(?P<rest>.*)$",
    re.IGNORECASE,
)
_FIRST_PERSON_VERB = {
    "lives": "live", "works": "work", "is": "am", "'s": "'m", "has been": "have been",
    "'s been": "'ve been", "teaches": "teach", "comes": "come", "has moved": "have moved",
    "has just moved": "have just moved", "wohnt": "wohne", "lebt": "lebe", "arbeitet": "arbeite",
    "ist": "bin", "hat": "habe", "kommt": "komme", "stammt": "stamme",
    "unterrichtet": "unterrichte", "jobbt": "jobbe",
}
# Someone's words about the relative ("my sister says ...") are no fact of theirs, and a job
# they retired from is no longer theirs.
_SAYS = re.compile(r"^\s*(?:says|said|thinks|meint|sagt|findet|glaubt)\b|\b(?:retired|former|"
                   r"ex-|ehemalige\w*|im ruhestand|in rente|pensioniert)", re.IGNORECASE)

_ENDED = re.compile(r"\b(?:no longer|any ?more|nicht mehr|nicht länger|nie mehr|nimmer|"
                    r"kein\w* (?:[\wäöüß-]+ ){0,3}?mehr)\b(?! als (?-i:[a-zäöüß\d]))",
                    re.IGNORECASE)
_SUBJECT_AND_VERB = re.compile(r"^(?:I(?:'m| am| \w+)|ich \w+)(?= )", re.IGNORECASE)
_OWN_SUBJECT = re.compile(r"^\s*(?:I|I'm|ich|we|wir|my|mein\w*|[A-ZÄÖÜ]\w*)\b")
_SEGMENT = re.compile(r"\s*[,;]\s*|\s+(?:but|aber|sondern)\s+", re.IGNORECASE)
_UNSAID = (
    (re.compile(r"\b(?:no longer|any ?more|nicht mehr|nicht länger|nie mehr|nimmer)\b", re.I), ""),
    (re.compile(r"\b(?:don't|do not|doesn't|does not)\s+", re.I), ""),
    (re.compile(r"\b(I'm|I am|I've been|I have been|is|are|am)\s+not\s+", re.I), r"\1 "),
    (re.compile(r"\bnot\s+", re.I), ""),
    (re.compile(r"\bkein(?:e|en|er|em|es)?\s+", re.I), ""),
    (re.compile(r"\bmehr\b", re.I), ""),
)


def subordinate_readings(sentence: str) -> list[Reading]:
    """German subordinate clauses with their verb moved second ("..., weil ich in Kiel wohne")."""
    return [Reading(f"{m['who']} {m['verb']} {m['mid']}")
            for m in _SUBORDINATE_DE.finditer(sentence)
            if m["verb"].casefold() not in ("würde", "hätte", "wäre", "könnte")]


def relative_reading(clause: str) -> Reading | None:
    """"My sister Lena lives in Vienna" read as "I live in Vienna", about Lena."""
    found = _RELATIVE_EN.match(clause) or _RELATIVE_DE.match(clause)
    if found is None or _SAYS.search(found["rest"]):
        return None
    role = RELATIVES[found["rel"].casefold()]
    who = found["name"] or role
    said = (found["verb"] or found["clitic"]).casefold()
    verb = _FIRST_PERSON_VERB.get(said, said)
    pronoun = "ich" if found.re is _RELATIVE_DE else "I"
    glue = "" if verb.startswith("'") else " "
    return Reading(f"{pronoun}{glue}{verb}{found['rest']}", subject=who,
                   relations=PARTNER_RELATIONS if role == "partner" else RELATIVE_RELATIONS)


def ended_readings(clause: str) -> list[Reading]:
    """Each part of `clause` that says a state ended, read without its negation."""
    found = []
    lead = _SUBJECT_AND_VERB.match(clause)
    for part in _SEGMENT.split(clause):
        if not _ENDED.search(part):
            continue
        # "Ich bin jetzt bei Klarna, nicht mehr bei Spotify": the elided part borrows the
        # clause's subject and verb.
        text = part if lead is None or _OWN_SUBJECT.match(part) else f"{lead.group(0)} {part}"
        if text != part:
            found.append(Reading(text))  # as said, for the rules written with the negation
        for pattern, replacement in _UNSAID:
            text = pattern.sub(replacement, text)
        text = " ".join(text.split())
        if text and text != part:
            found.append(Reading(text, negated=True, relations=ENDED_STATES))
    return found


_GAPPED = re.compile(
    r"^(?P<first>.+?) (?P<verb>ist|is|sind|are) (?P<value>[^,]+?),? (?:und|and) "
    r"(?P<second>(?:mein\w*|my|our|unser\w*) [\wäöüß-]+) (?P<value2>[\wäöüß-]+)\s*[.!]?$",
    re.IGNORECASE,
)


def gapped_reading(clause: str) -> Reading | None:
    """"Mein Sohn ist 12 und meine Tochter 9": the second subject gets its verb back."""
    found = _GAPPED.match(clause)
    if found is None:
        return None
    return Reading(f"{found['second']} {found['verb']} {found['value2']}")
