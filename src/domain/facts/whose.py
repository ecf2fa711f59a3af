"""Whose fact a question asks about, and whose fact a memory states (EN/DE): the user or
a relative, so "What is my brother allergic to?" is not answered by the user's allergy."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from memlane.domain.facts.patterns.kin import RELATIVES
from memlane.domain.graph import holder_of, people_named

SELF = "self"
# Holders the kin map does not name, in one spelling per role.
_MORE_ROLES = {
    "eltern": "parents", "geschwister": "siblings", "großeltern": "grandparents",
    "siblings": "siblings", "parents": "parents", "grandparents": "grandparents",
}
# Roles that are never one another: a brother is not a mother. A holder outside them
# ("freundin": a friend or the partner) may be any relative.
_KNOWN_ROLES = frozenset(RELATIVES.values()) | frozenset(_MORE_ROLES.values())
# A group and its members are not other people: "my parents" holds "my mother" (a son is
# still not a daughter).
_GROUPS = {
    "parents": frozenset({"mother", "father"}), "siblings": frozenset({"brother", "sister"}),
    "children": frozenset({"son", "daughter", "twins"}),
    "twins": frozenset({"son", "daughter", "children"}),
    "grandparents": frozenset({"grandmother", "grandfather"}),
}
# A question speaks of the user or their own people only with a first-person word; "US" is
# the country, so "us" is left out.
_FIRST_PERSON = re.compile(
    r"(?<!\w)(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|our|ours|ich|mich|mir|mein\w*|wir|"
    r"uns|unser\w*)(?!\w)", re.IGNORECASE)
# A question about the user's pets ("Do I have pets?", "Habe ich Haustiere?") speaks of every
# pet: "My dog is called Pepper" answers it, though a dog's fact is no fact of the user's
# ("What am I allergic to?" is not answered by "My dog is allergic to chicken").
_PETS_ASKED = re.compile(r"(?<!\w)(?:pets?|haustier\w*)(?!\w)", re.IGNORECASE)
_PETS = frozenset({"dog", "cat", "puppy"})
# A transcript line opens with its speaker ("user: ...", "Caroline: ...").
_SPEAKER = re.compile(r"^\s*(?P<speaker>[^\s:][^:\n]{0,40}):\s")
_ASSISTANT = "assistant"


@dataclass(frozen=True)
class PersonReading:
    """`holder`: whom a text is about ("self", a role such as "brother", another person's
    noun such as "freundin"; None: nobody, someone named, or not known); `named`:
    everyone it speaks of, as subject or object, in the same terms."""

    holder: str | None
    named: frozenset[str] = frozenset()


NOBODY = PersonReading(None)


def _role(holder: str) -> str:
    return RELATIVES.get(holder) or _MORE_ROLES.get(holder, holder)


def _reading(text: str) -> PersonReading:
    holder = holder_of(text)
    if holder is None or holder == "other" or holder.startswith("name:"):
        return NOBODY
    return PersonReading(_role(holder), frozenset(_role(n) for n in people_named(text)))


def person_asked(question: str) -> PersonReading:
    """Whom a question asks about: the user ("Wogegen bin ich allergisch?", "When is my
    birthday?") or their relative ("What is my brother allergic to?", "Wann hat meine
    Mutter Geburtstag?"). NOBODY without a first-person word: "What did Caroline's mother
    do?" asks about someone else's people, which a memory's "my mother" does not name."""
    if not _FIRST_PERSON.search(question):
        return NOBODY
    reading = _reading(question)
    if reading.holder is not None and _PETS_ASKED.search(question):
        return replace(reading, named=reading.named | _PETS)
    return reading


def person_stated(text: str, *, replied: bool = False) -> PersonReading:
    """Whom a memory's fact is about ("My brother is allergic to cats": brother; "I bought
    my sister a scarf": the user, speaking of the sister). The assistant's words are
    NOBODY's: its "I" is not the user (`replied`, or lines spoken by "assistant")."""
    said = "" if replied else _users_words(text)
    return _reading(said) if said else NOBODY


def _users_words(text: str) -> str:
    """The text without its speakers' names and without the assistant's lines."""
    lines = []
    for line in text.splitlines():
        speaker = _SPEAKER.match(line)
        if speaker is not None:
            if speaker["speaker"].strip().casefold() == _ASSISTANT:
                continue
            line = line[speaker.end():]
        if line.strip():
            lines.append(line.strip())
    return " ".join(lines)


def whose_factor(asked: PersonReading, stated: PersonReading, weight: float) -> float:
    """What a memory's match is multiplied by for whose fact it states: 1 + `weight` when
    it is about the relative asked about, 1 - `weight` when it is about another person than
    the one asked about (the user for a relative, a relative for the user, another
    relative), 1 otherwise. The user's own facts are not lifted for a question about the
    user (most memories are theirs). Nothing is lowered that speaks of the person asked
    about ("I bought my sister a scarf" for "What does my sister like?"), that the question
    names too ("What did I give my sister?"), whose relation to the asked one is not
    known ("Meine Freundin ..." for "my partner"), or who is one of a group asked about
    ("my mother" for "my parents")."""
    asked_holder, holder = asked.holder, stated.holder
    if weight == 0 or asked_holder is None or holder is None:
        return 1.0
    if holder == asked_holder:
        return 1.0 if holder == SELF else 1.0 + weight
    if asked_holder in stated.named or holder in asked.named:
        return 1.0
    if SELF not in (holder, asked_holder) and (
            not {holder, asked_holder} <= _KNOWN_ROLES
            or holder in _GROUPS.get(asked_holder, ()) or asked_holder in _GROUPS.get(holder, ())):
        return 1.0
    return 1.0 - weight


def stated_factor(asked: PersonReading, text: str, weight: float, *,
                  replied: bool = False) -> float:
    """`whose_factor` of a memory's text, reading whom it is about only when that can
    matter: for a question about the user, a memory where the user speaks of themself ("I",
    "mir") keeps its match whoever its subject is, and so does one that names no person
    ("The trip to Lisbon depends on the weather"): neither is read further."""
    said = "" if replied else _users_words(text)
    if weight == 0 or asked.holder is None or not said:
        return 1.0
    if asked.holder == SELF:
        named = people_named(said)
        # Speaking of themself, or of nobody a holder noun names: the user's fact either way.
        if SELF in named or not named:
            return 1.0
    return whose_factor(asked, _reading(said), weight)
