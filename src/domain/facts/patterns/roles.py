"""A job said with its workplace, whatever the job's word, EN and DE (issue 23, fourth round).

The job lists (`OCCUPATIONS_EN`, `OCCUPATION_STEMS_DE`) cover the jobs the rules were
written for; "lock keeper", "Fluglotse", "Zimmerin", "Prüfingenieur" are not in them. When
the sentence names the workplace too ("I'm a sommelier at Noma", "Bin Zimmerin bei Holzbau
Kern", "bei Bosch als Prüfingenieur angefangen"), the construction says the noun is a job,
so any noun shaped like a person who does something (an agent noun: -er, -or, -ist, -eur,
-ant, -ent, -loge, -lotse, -meister, -schmied, -frau, -mann, -angestellte …) is read as
one. Nouns of that shape that name no job at a place ("member", "customer", "Patientin",
"Mieter", "Mitglied") are refused by a stop list, and the workplace must be named (a
capital): "I'm a regular at the Red Lion" and "Ich bin Kundin bei der Sparkasse" say nothing.
"""

from __future__ import annotations

import re

from memlane.domain.facts.patterns.constructions import ORG_DE, ORG_EN
from memlane.domain.facts.patterns.en import named_employer
from memlane.domain.facts.patterns.lexicon import FEMININE_SUFFIX_DE, word_set
from memlane.domain.facts.rules import Rule, rule

_AGENT_EN = ("er", "or", "ist", "ian", "ant", "ent", "eer", "ier", "man", "woman", "keeper",
             "smith", "wright", "ista", "ess", "nurse", "chef", "cook", "medic", "pilot",
             "clerk", "guard", "tech", "owner", "lead", "head")
_AGENT_DE = ("er", "eur", "ist", "ant", "ent", "loge", "lotse", "meister", "schmied", "frau",
             "mann", "kraft", "angestellte", "angestellter", "arzt", "ärztin", "ologe",
             "pfleger", "hilfe", "leiter", "owner", "engineer", "manager", "koch", "köchin")
# Agent nouns that name no job at the place they are said with.
NOT_JOBS = word_set("""
member regular customer client patient fan guest visitor subscriber user passenger tenant
lodger supporter volunteer holder player beginner learner newcomer attendee participant
winner reader listener viewer follower shareholder investor student resident parent
speaker runner swimmer lover believer
mitglied kunde kundin patient patientin gast stammgast fan besucher besucherin mieter
mieterin abonnent abonnentin teilnehmer teilnehmerin spieler spielerin schüler schülerin
student studentin nutzer nutzerin zuschauer zuschauerin anhänger anhängerin bewohner
bewohnerin läufer läuferin
""")
_JUDGED = word_set("big good bad terrible great huge massive total real proper")
_EMPLOYMENT = re.compile(r"^(?:part-time|full-time|teilzeit-?|vollzeit-?)\s*", re.IGNORECASE)


def agent_noun_en(_: re.Match[str] | None, phrase: str) -> str | None:
    """`phrase` when its last word names someone who does something and no word judges it
    ("sommelier", "lock keeper"; not "big eater", not "member"); "part-time" falls off."""
    phrase = _EMPLOYMENT.sub("", phrase.strip())
    words = phrase.casefold().split()
    if not words or words[-1] in NOT_JOBS or _JUDGED.intersection(words):
        return None
    return phrase if words[-1].endswith(_AGENT_EN) else None


def agent_noun_de(_: re.Match[str] | None, phrase: str) -> str | None:
    """`phrase` when it is capitalised and its last word names someone who does something
    ("Zimmerin", "Fluglotse", "Senior Product Owner"; not "Mitglied", "Kundin")."""
    phrase = phrase.strip()
    words = phrase.split()
    if not words or not all(word[:1].isupper() for word in words):
        return None
    last = words[-1].casefold()
    if last in NOT_JOBS:
        return None
    bare = last.removesuffix(FEMININE_SUFFIX_DE)
    return phrase if last.endswith(_AGENT_DE) or (bare != last and bare.endswith(_AGENT_DE)) \
        else None


def _role_en(match: re.Match[str]) -> bool:
    return agent_noun_en(match, match.group("job")) is not None


def _role_de(match: re.Match[str]) -> bool:
    return agent_noun_de(match, match.group("job")) is not None


def _workplace(_: re.Match[str], place: str) -> str | None:
    """A named workplace without the town it is in ("DFS in Langen" -> "DFS")."""
    return named_employer(place)


def _named_after_im(match: re.Match[str]) -> bool:
    """German capitalises every noun, so after "im"/"am" a workplace needs a name besides its
    noun ("im Kantonsspital Aarau", not "im Ruderverein"); "bei" names one by itself."""
    return match.group("at").casefold() in ("bei", "beim") or len(match.group("o").split()) > 1


_I_AM = r"\bI(?:'m| am|'ve been| have been)(?: (?:now|currently|still|also))?"
_JOB_EN = r"(?P<job>[\w-]+(?: [\w-]+){0,2}?)"
_ICH_BIN = (r"\b(?:ich bin|bin ich)(?: (?:jetzt|seit [\wäöüß]+|inzwischen|mittlerweile|halt|nun|"
            r"wieder|schon))*")
_JOB_DE = r"(?P<job>(?-i:[A-ZÄÖÜ])[\wäöüß-]+(?: (?-i:[A-ZÄÖÜ])[\wäöüß-]+){0,2}?)"
_AT_DE = r"(?P<at>bei|beim|im|am)"
_STARTED_DE = r"(?:angefangen|eingestiegen|gestartet|eingestellt worden|untergekommen)"
_JOB = {"group": "job", "confidence": 0.75}
_PLACE = {"shape": _workplace, "confidence": 0.75}

RULES: tuple[Rule, ...] = (
    rule(rf"{_I_AM} an? {_JOB_EN} at {ORG_EN}", "works_as", shape=agent_noun_en, **_JOB),
    rule(rf"{_I_AM} an? {_JOB_EN} at {ORG_EN}", "works_at", accept=_role_en, **_PLACE),
    rule(rf"{_ICH_BIN} {_JOB_DE} {_AT_DE} {ORG_DE}", "works_as", shape=agent_noun_de,
         accept=_named_after_im, **_JOB),
    rule(rf"{_ICH_BIN} {_JOB_DE} {_AT_DE} {ORG_DE}", "works_at",
         accept=lambda m: _role_de(m) and _named_after_im(m), **_PLACE),
    rule(rf"\b(?:bei|beim) {ORG_DE} als {_JOB_DE} {_STARTED_DE}", "works_as",
         shape=agent_noun_de, **_JOB),
    rule(rf"\b(?:bei|beim) {ORG_DE} als {_JOB_DE} {_STARTED_DE}", "works_at", accept=_role_de,
         **_PLACE),
)
