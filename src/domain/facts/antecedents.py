"""A relative or pet named once lends itself to the clauses after it (issue 23, fourth round).

"My sister Ruth is 45 and lives in Leeds", "My dad lives in Swansea and he's 71", "Unser
Kater Moritz schläft viel, er ist schon 15": the second predicate has no subject of its own,
or only a pronoun. `antecedent_readings` gives each such clause back with the relative's own
words as its subject ("my dad is 71", "Unser Kater Moritz ist schon 15"), so the rules that
read a relative's age or home read it whatever the first clause said. A pronoun must agree
with the relative ("he" is no sister, "sie" no Sohn); a clause with a subject of its own,
or a relative who is someone else's ("Tom's brother", "die Schwester von Jana"), lends
nothing. `without_parenthetical_ages` reads "Ezra (8) and Maya (5)" as a list of names.
"""

from __future__ import annotations

import re

from memlane.domain.facts.patterns.kin import RELATIVES, ROLE_NAMES
from memlane.domain.facts.patterns.lexicon import PET_WORDS
from memlane.domain.facts.patterns.names import N

_MALE = frozenset({
    "brother", "dad", "father", "son", "boy", "husband", "boyfriend", "grandpa",
    "grandfather", "granddad", "grandad", "uncle", "nephew", "verlobter", "lebensgefährte",
    "bruder", "vater", "papa", "sohn", "mann", "ehemann", "opa", "großvater", "neffe",
    "onkel", "kater", "hund", "freund",
})
_FEMALE = frozenset({
    "sister", "mom", "mum", "mother", "daughter", "girl", "wife", "girlfriend", "fiancée",
    "grandma", "grandmother", "granny", "nan", "niece", "aunt", "verlobte", "lebensgefährtin",
    "schwester", "mutter", "mama", "tochter", "frau", "ehefrau", "partnerin", "oma",
    "großmutter", "nichte", "tante", "katze", "hündin", "stute", "freundin",
})
_PRONOUNS = {"he": _MALE, "er": _MALE, "she": _FEMALE, "sie": _FEMALE}
# One relative or pet: "my twins", "unsere Kinder" lend no singular predicate.
_PLURALS = frozenset({"twins", "kids", "children", "kinder", "zwillinge", "dogs", "cats",
                      "hunde", "katzen"})
_NOUNS = "|".join(sorted({*RELATIVES, *PET_WORDS, "hündin", "stute", "grandad"} - _PLURALS,
                         key=len, reverse=True))
# "my sister Ruth", "Unser Kater Moritz", "my little brother": the user's own relative or
# pet, never someone else's ("my neighbour's dog").
_ANTECEDENT = re.compile(
    rf"\b(?i:my|our|mein|meine|unser|unsere) (?:(?i:[a-zäöüß-]+) ){{0,2}}?"
    rf"(?P<noun>(?i:{_NOUNS}))(?: (?P<name>{N}))?(?=[\s,.!?]|$)"
    # "Mama ist 70 und wohnt in Bielefeld": a role said as a name opens the sentence.
    rf"|^(?P<role>(?i:{ROLE_NAMES}))(?= (?i:is|ist|lives|wohnt|lebt)\b)"
)
_OWNER_OF_ROLE = {"mama": "meine", "oma": "meine", "omi": "meine", "papa": "mein", "opa": "mein",
                  "opi": "mein"}
# Where a new predicate may start: after a comma, "and"/"und" or "but"/"aber".
_JOINT = re.compile(r"(?:,\s+|\s+(?:and|und|but|aber)\s+)(?:(?:and|und)\s+)?")
# A predicate with no subject: a third-person verb right after the joint.
_BARE_VERB = re.compile(r"^(?:lives|is|works|turned|wohnt|lebt|ist|arbeitet|wird|heißt|"
                        r"heisst)\b",
                        re.IGNORECASE)
_PRONOUN_VERB = re.compile(
    r"^(?P<pronoun>he|she|er|sie)(?P<verb>'s|\s+(?:is|lives|works|turned|ist|wohnt|lebt|"
    r"arbeitet|wird))\b", re.IGNORECASE)
_CALLED = re.compile(rf"\s+(?i:heißt|heisst|is called|is named|'s called)\s+(?P<name>{N})\b")
_PARENTHETICAL_AGE = re.compile(rf"(?P<name>{N}) \(\s*\d{{1,3}}\s*\)")


def _agrees(pronoun: str, noun: str, named: bool) -> bool:
    """He/er for a male relative, she/sie for a female one; a pet or a named relative of no
    known sex takes either."""
    folded = noun.casefold()
    other = _FEMALE if _PRONOUNS[pronoun.casefold()] is _MALE else _MALE
    if folded in _PRONOUNS[pronoun.casefold()]:
        return True
    return folded not in other and (named or folded in PET_WORDS)


def antecedent_readings(statement: str) -> list[str]:
    """The later clauses of `statement`, each with the relative it is about as its subject."""
    found = _ANTECEDENT.search(statement)
    if found is None:
        return []
    subject = found.group(0)
    if found.group("role"):
        subject = f"{_OWNER_OF_ROLE.get(subject.casefold(), 'my')} {subject}"
    rest = statement[found.end():]
    # "Meine Tochter heißt Lena und ist sieben": the name given after it is the subject.
    called = _CALLED.match(rest) if found.group("name") is None else None
    if called is not None:
        subject, rest = f"{subject} {called.group('name')}", rest[called.end():]
    readings = []
    for joint in _JOINT.finditer(rest):
        clause = rest[joint.end():]
        pronoun = _PRONOUN_VERB.match(clause)
        if pronoun is not None:
            if not _agrees(pronoun.group("pronoun"), found.group("noun") or found.group("role"),
                           found.group("name") is not None):
                continue
            verb = pronoun.group("verb")
            verb = " is" if verb == "'s" else verb
            readings.append(subject + verb + clause[pronoun.end():])
        elif _BARE_VERB.match(clause):
            readings.append(f"{subject} {clause}")
    return readings


def without_parenthetical_ages(statement: str) -> str:
    """"Ezra (8) and Maya (5)" -> "Ezra and Maya": the names a list rule reads."""
    return _PARENTHETICAL_AGE.sub(r"\g<name>", statement)
