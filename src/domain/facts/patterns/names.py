"""Names said in passing and names that change, EN and DE ("I'm Priya, by the way",
"Hier ist Jonas", "I go by Alex now", "ich heiße seit März Christine")."""

from __future__ import annotations

import re

from memlane.domain.facts.patterns.de import occupation_de
from memlane.domain.facts.patterns.lexicon import (
    NATIONALITIES_DE,
    NATIONALITIES_EN,
    NOT_NAMES,
    TRAIT_NOUNS_DE,
)
from memlane.domain.facts.rules import ObjectKind, Rule, rule

NAME = ObjectKind.NAME
# A name token: capitalised, letters (an apostrophe or hyphen inside), no possessive 's.
# (Case-sensitive inside patterns that are not: a name starts with a capital.)
N = r"(?-i:[A-ZÄÖÜÁÉÍÓÚ][\wäöüßáéíóúñ'-]*)(?<!'s)"
NAME2 = rf"(?:{N})(?: {N})?"
TITLE = r"(?:(?:Dr|Prof|Mr|Mrs|Ms|Frau|Herr)\.? )?"
# What may follow a name said in passing: the sentence's end, a comma, "and", "from", ...
AFTER_EN = r"(?=\s*(?:[,.!]|$|\band\b|\bfrom\b|\bby the way\b|\bbtw\b|\bhere\b|\bnow\b|\bagain\b))"
AFTER_DE = (r"(?=\s*(?:[,.!]|$|\bund\b|\baus\b|\bvon\b|\bübrigens\b|\bhier\b|\bjetzt\b|"
            r"\bwieder\b))")
_NOT_A_NAME = (NOT_NAMES | NATIONALITIES_EN | NATIONALITIES_DE | TRAIT_NOUNS_DE)
# German capitalises every noun: "Ich bin Anfänger", "Ich bin Rentner" name no one.
_NOUN_ENDINGS_DE = re.compile(
    r"(?:ung|heit|keit|schaft|mensch|typ|fan|ler|ner|ker|iker|ier|ist|istin|ent|entin|ant|"
    r"antin|or|eur|euse|ling|erin|zeit|tag|jahr|mutter|vater|kind|frau|mann)$",
    re.IGNORECASE,
)


def _a_name(match: re.Match[str], value: str) -> str | None:
    first = value.split()[0]
    return None if first.casefold() in _NOT_A_NAME or first in _NOT_A_NAME else value


def _a_name_de(match: re.Match[str], value: str) -> str | None:
    first = value.split()[0]
    if (_a_name(match, value) is None or _NOUN_ENDINGS_DE.search(first)
            or occupation_de(match, first) is not None):
        return None
    return value


def _not_possessive(match: re.Match[str]) -> bool:
    """'I'm Sam's mum' names Sam, not the user."""
    return not re.match(rf"{N}'s\b", match.string[match.start("o"):])


OPTS = {"kind": NAME, "shape": _a_name}
OPTS_DE = {"kind": NAME, "shape": _a_name_de}

RULES: tuple[Rule, ...] = (
    # EN: in passing.
    rule(rf"(?:^|[,!.]\s+|\band\s+)I(?:'m| am) (?:just )?{TITLE}(?P<o>{NAME2}){AFTER_EN}", "name",
         accept=_not_possessive, confidence=0.85, **OPTS),
    rule(rf"^(?:(?:hi|hello|hey)[,!]? )?(?P<o>{NAME2}) (?:here,|speaking\b)", "name",
         confidence=0.85, **OPTS),
    rule(rf"^(?:(?:hi|hello|hey|oh hi|hi there)[,!]? )?it's me(?: again)?,? (?P<o>{NAME2})", "name",
         confidence=0.85, **OPTS),
    rule(rf"^(?:hi|hello|hey|oh hi|hi there)[,!]? (?:it's|it is|this is) (?P<o>{NAME2}){AFTER_EN}",
         "name", confidence=0.8, **OPTS),
    rule(rf"^this is (?P<o>{NAME2}) (?:from|speaking|here)\b", "name", confidence=0.8, **OPTS),
    rule(rf"(?:^|\bmy |\bthe )name's (?P<o>{NAME2})", "name", confidence=0.9, **OPTS),
    rule(rf"\bI go by (?P<o>{NAME2})", "name", confidence=0.9, **OPTS),
    rule(r"\b(?:people|everyone|everybody|friends|most people|my friends|my family|they) "
         rf"(?:all )?calls? me (?P<o>{NAME2})", "name", **OPTS),
    # EN: a name that changed.
    rule(r"\bI(?:'ve| have)? (?:legally |officially )?changed my (?:first |last |sur|family )?"
         rf"name to (?P<o>{NAME2})", "name", confidence=0.95, **OPTS),
    rule(r"\b(?:went|gone|going) back to my (?:maiden|old|birth|original) name,? "
         rf"(?P<o>{NAME2})", "name", **OPTS),
    rule(r"\bmy (?:sur|last |family )name(?:'s| is) (?P<o>.+)", "name", confidence=0.9, **OPTS),
    rule(rf"\bname\b[^.]*?\bso it's (?P<o>{NAME2}) now\b", "name", **OPTS),
    # DE: in passing.
    # "Ich bin X" names the user only said as an introduction: after a greeting, with
    # "übrigens" or an article ("ich bin die Jana"), or going on "und ..." (German capitalises
    # every noun, so "Ich bin Ärztin" alone is a job).
    rule(rf"^(?:hallo|hi|hey|moin|servus|grüezi|hoi|guten tag)(?: zusammen| mitenand| zäme)?"
         rf"[,!]? ich bin {TITLE}(?P<o>{NAME2}){AFTER_DE}",
         "name", confidence=0.8, **OPTS_DE),
    rule(rf"\bich bin (?:übrigens |nochmal |wieder |also )*(?:der |die |übrigens ){TITLE}"
         rf"(?P<o>{NAME2}){AFTER_DE}", "name", confidence=0.8, **OPTS_DE),
    rule(rf"^ich bin {TITLE}(?P<o>{NAME2})(?: und (?:komme|wohne|arbeite|brauche|habe|bin)\b|"
         r",\s+(?:die|der) )", "name", confidence=0.75, **OPTS_DE),
    rule(rf"\bich bin (?:Dr|Prof)\.? (?P<o>{NAME2})", "name", **OPTS_DE),
    rule(rf"\bich bin [^,]+, (?:die|der) (?:frau|freundin|partnerin|verlobte|mann|freund|partner|"
         rf"verlobte) von (?P<o>{NAME2})", "partner", kind=NAME),
    rule(rf"\bhier ist (?:nochmal |wieder |übrigens )*(?P<o>{NAME2}){AFTER_DE}", "name",
         **OPTS_DE),
    rule(rf"\bich bin's(?: wieder| nochmal)?,? (?:die |der )?(?P<o>{NAME2})", "name", **OPTS_DE),
    rule(rf"(?:^|,\s*)(?P<o>{NAME2}) (?:hier,|hier\s*[.!]?$|am apparat\b)", "name", **OPTS_DE),
    rule(rf"\b(?:kannst|könnt|können) mich (?:(?:gern|gerne|ruhig|einfach) )*(?P<o>{NAME2}) "
         r"nennen\b", "name", **OPTS_DE),
    rule(rf"\bsag(?:t|en sie)? (?:(?:einfach|ruhig|gern|gerne|doch) )*(?P<o>{NAME2}) zu mir\b",
         "name", **OPTS),
    # DE: a name that changed, or said with an adverb first ("ich heiße jetzt Meier").
    rule(r"\bich heiße (?:(?:jetzt|nun|inzwischen|mittlerweile|wieder|offiziell|eigentlich|"
         rf"übrigens|seit \w+|mit nachnamen) )+(?P<o>{NAME2})", "name", confidence=0.9,
         **OPTS),
    rule(rf"\bmeinen (?:vor|nach)?namen (?:in|zu) (?P<o>{NAME2}) (?:geändert|ändern lassen)",
         "name", confidence=0.9, **OPTS),
    rule(rf"\bmeinen (?:mädchen|geburts)namen,? (?P<o>{NAME2}),? wieder angenommen", "name",
         **OPTS),
)


# "Dev here, short for Devendra", "i bin da Ferdl, eigentlich Ferdinand": the fuller name.
_CALL_ME = re.compile(r"\bcall me\b|\bnenn\w* mich\b|\bsag\w*\b(?![^.]*\bkeine?r?\b)[^.]{0,20}"
                      r"\bzu mir\b", re.IGNORECASE)
_FULLER = r",? (?i:short for|kurz für|eigentlich|full name(?: is)?) (?P<full>{name})"


def fuller_name(statement: str, name: str) -> str:
    """The fuller form the statement gives `name` right after it, else `name` (and `name`
    when it is the name asked for: "call me Mo, short for Mohammed")."""
    if _CALL_ME.search(statement):
        return name
    found = re.search(rf"\b{re.escape(name)}\b[^.!?,]{{0,12}}?" + _FULLER.format(name=NAME2),
                      statement)
    return found.group("full") if found is not None else name
