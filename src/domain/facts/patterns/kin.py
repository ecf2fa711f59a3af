"""Family and partners, EN and DE: relatives' ages ("my son Ben is 7", "meine Mutter ist
gestern 60 geworden"), partners with durations and endings ("married to Tom for 12 years",
"Tom und ich haben uns getrennt")."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from memlane.domain.facts.date_words import AGE_WORDS, number
from memlane.domain.facts.patterns.names import N
from memlane.domain.facts.rules import ObjectKind, Rule, ended, rule

NAME = ObjectKind.NAME
# Who an age is about when no name is given: the relative, in English.
RELATIVES: Mapping[str, str] = {
    "sister": "sister", "brother": "brother", "mom": "mother", "mum": "mother",
    "mother": "mother", "dad": "father", "father": "father", "son": "son", "boy": "son",
    "daughter": "daughter", "girl": "daughter", "wife": "partner", "husband": "partner",
    "partner": "partner", "girlfriend": "partner", "boyfriend": "partner", "fiance": "partner",
    "fiancé": "partner", "fiancée": "partner", "spouse": "partner", "verlobter": "partner",
    "verlobte": "partner", "lebensgefährte": "partner", "lebensgefährtin": "partner",
    "grandma": "grandmother",
    "grandmother": "grandmother", "granny": "grandmother", "nan": "grandmother",
    "grandpa": "grandfather", "grandfather": "grandfather", "granddad": "grandfather",
    "nephew": "nephew", "niece": "niece", "uncle": "uncle", "aunt": "aunt", "cousin": "cousin",
    "twins": "twins", "kids": "children", "children": "children", "dog": "dog", "cat": "cat",
    "schwester": "sister", "bruder": "brother", "mutter": "mother", "mama": "mother",
    "vater": "father", "papa": "father", "sohn": "son", "tochter": "daughter",
    "frau": "partner", "mann": "partner", "ehefrau": "partner", "ehemann": "partner",
    "partnerin": "partner", "oma": "grandmother", "großmutter": "grandmother",
    "opa": "grandfather", "großvater": "grandfather", "omi": "grandmother", "opi": "grandfather",
    "grandad": "grandfather", "neffe": "nephew", "nichte": "niece",
    "onkel": "uncle", "tante": "aunt", "zwillinge": "twins", "kinder": "children",
    "hund": "dog", "katze": "cat", "kater": "cat",
}
# Relatives who need their name to be told apart ("my stepdaughter Jade").
_NAMED_ONLY = ("stepdaughter|stepson|stieftochter|stiefsohn|oldest|eldest|youngest|älteste|"
               "jüngste|ältester|jüngster")
_KIN = "|".join(sorted(RELATIVES, key=len, reverse=True)) + "|" + _NAMED_ONLY
_ADJ_EN = (r"(?:(?:little|big|older|younger|baby|eldest|oldest|youngest|twin|step|half|first|"
           r"second|third)[- ]?)")
_ADJ_DE = (r"(?:(?:kleine[rn]?|große[rn]?|ältere[rn]?|jüngere[rn]?|älteste[rn]?|jüngste[rn]?)"
           r" )")
AGE = rf"(?P<o>{AGE_WORDS})"
# An age is not a count of something else: "two years older", "6 months", "5 euros".
_NOT_AN_AGE = (r"(?!\s*(?:years? (?:older|younger|ago)|jahre (?:älter|jünger)|older|younger|"
               r"älter|jünger|months?|weeks?|"
               r"days?|monate?n?|wochen?|tage?n?|%|percent|prozent|€|euros?|dollars?|pounds?|"
               r"kilos?|kg|cm|km|foot|feet|minutes?|hours?|o'clock|am\b|pm\b|uhr|[:.,]\d))")
_PARTNER_EN = r"(?:wife|husband|partner|girlfriend|boyfriend|fianc[ée]e?|spouse)"
_TOGETHER_DE = r"(?:zusammen|verheiratet|verlobt|ein paar|liiert)"


def age(_: re.Match[str], value: str) -> str | None:
    """An age as digits ("sieben" -> "7"), or None when it is no plausible age."""
    try:
        years = number(value)
    except ValueError:
        return None
    return str(years) if 0 < years <= 120 else None


def relative(match: re.Match[str]) -> str | None:
    """Whom an age is about: the name given, else the relative's role in English."""
    named = match.groupdict().get("name")
    if named:
        return named
    return RELATIVES.get((match.group("rel") or "").casefold())


# A relative called by their role, as a name: "Grandma is 97", "Opa ist 88".
ROLE_NAMES = ("grandma|grandpa|grandad|granddad|granny|nan|mum|mom|dad|oma|opa|mama|papa|"
              "omi|opi")

AGED = {"shape": age, "subject": relative, "keep_time": True, "confidence": 0.85}

AGES: tuple[Rule, ...] = (
    rule(rf"\b(?:my|our) {_ADJ_EN}*(?P<rel>{_KIN})(?:,? (?P<name>{N}),?)?(?:'s| is| has just "
         rf"turned| just turned| turned)(?: (?:now|just|already|only|nearly))? {AGE}\b"
         rf"{_NOT_AN_AGE}", "age", **AGED),
    rule(rf"\bI(?: have|'ve got| have got| got) (?:a|an|one) {AGE}[- ]year[- ]old "
         rf"(?P<rel>{_KIN})(?: (?:named|called) (?P<name>{N}))?", "age", **AGED),
    rule(rf"\b(?:mein|meine|unser|unsere) {_ADJ_DE}*(?P<rel>{_KIN})(?:,? (?:der |die )?"
         rf"(?P<name>{N}))?,? "
         r"(?:ist|wird) (?:(?:jetzt|gerade|schon|erst|gestern|heute|vorgestern|letzte woche|"
         rf"letzten \w+|am \w+|vor kurzem|nun) )*{AGE}(?: jahre(?: alt)?(?! älter| jünger))?"
         r"(?: geworden)?\b"
         rf"{_NOT_AN_AGE}", "age", **AGED),
    rule(rf"^(?P<rel>{ROLE_NAMES})(?:'s| is| ist| wird)(?: (?:now|jetzt|schon|gerade|bald))? "
         rf"{AGE}\b{_NOT_AN_AGE}", "age", **AGED),
    # "I've got a 6-year-old called Freya": a child said by its age alone.
    rule(rf"\b(?:I|we)(?: have|'ve got| have got| got|'ve) (?:a|an|one) {AGE}[- ]year[- ]old "
         rf"(?:named|called) (?P<name>{N})", "age", **AGED),
    rule(rf"\b(?:I|we)(?: have|'ve got| have got| got|'ve) (?:a|an|one) \w+[- ]year[- ]old "
         rf"(?:named|called) (?P<o>{N})", "children", kind=NAME),
    rule(rf"\bich habe (?:einen|eine|ein) {AGE}[- ]?jährige[nrs]? (?P<rel>{_KIN})"
         rf"(?: namens (?P<name>{N}))?", "age", **AGED),
)

_NAMED = {"kind": NAME, "confidence": 0.85}
PARTNERS: tuple[Rule, ...] = (
    rule(rf"\bI(?:'ve| have) been with (?:my (?:partner|girlfriend|boyfriend|wife|husband|"
         rf"fianc[ée]e?) )?(?P<o>{N})\b(?= for| since)", "partner", **_NAMED),
    rule(r"\bI(?:'ve| have)? (?:been |got |just got )?(?:happily |officially )?"
         r"(?:married to|dating|seeing|"
         rf"engaged to|together with|in a (?:long-distance )?relationship with) (?P<o>{N})",
         "partner", **_NAMED),
    rule(r"\b(?:dating|seeing) (?:a (?:guy|girl|man|woman)|someone(?: new)?),? (?:named|called|"
         rf"(?:her|his) name is) (?P<o>{N})", "partner", **_NAMED),
    rule(rf"\bI (?:married|wed) (?:my (?:[\w-]+ ){{0,3}}?(?:sweetheart|partner|love),? )?"
         rf"(?P<o>{N})",
         "partner", **_NAMED),
    rule(rf"(?:^|\bme and )(?P<o>{N})(?: and I)? (?:have been|'ve been|are|'re|got|have "
         r"been officially) (?:together|a couple|married|engaged|dating|an item)\b", "partner",
         **_NAMED),
    rule(rf"\bI(?:'m| am) (?:{N}, )?(?P<o>{N})'s {_PARTNER_EN}\b", "partner", **_NAMED),
    rule(rf"\bmy {_PARTNER_EN}'s called (?P<o>{N})", "partner", **_NAMED),
    rule(rf"^(?P<o>{N}) and I (?:broke up|split(?: up)?|separated|divorced|are (?:no longer|not)"
         r" together)", "partner", negated=True, **_NAMED),
    rule(rf"\bI (?:broke up|split(?: up)?) with (?P<o>{N})", "partner", negated=True, **_NAMED),
    rule(rf"\bI divorced (?P<o>{N})", "partner", negated=True, **_NAMED),
    rule(r"\bI(?:'m| am) (?:no longer|not) (?:with|together with|dating|seeing|married to) "
         rf"(?P<o>{N})", "partner", negated=True, accept=ended, **_NAMED),
    rule(rf"\bich bin (?:[\w.]+ ){{0,5}}?mit (?P<o>{N}) (?:{_TOGETHER_DE})\b", "partner",
         unless=re.compile(r"\bnicht mehr\b", re.I), **_NAMED),
    rule(rf"\bich date (?P<o>{N})", "partner", **_NAMED),
    # Right-dislocated: "Wir sind verlobt, Aylin und ich", "We're engaged, Chris and me".
    rule(rf"^(?:wir sind|we're|we are) (?:\w+ )?(?:{_TOGETHER_DE}|engaged|married|together|a "
         rf"couple),? (?P<o>{N}) (?:und|and) (?:ich|I|me)\b", "partner", **_NAMED),
    rule(rf"\b\w*beziehung mit (?P<o>{N})", "partner", **_NAMED),
    rule(rf"^(?P<o>{N}) und ich (?:sind|waren) (?:[\w.]+ ){{0,4}}?{_TOGETHER_DE}\b", "partner",
         unless=re.compile(r"\bnicht mehr\b", re.I), **_NAMED),
    rule(rf"\bich habe (?:[\w.]+ ){{0,3}}?(?:meine[nr]? (?:[\w-]+ )?)?(?P<o>{N}) geheiratet",
         "partner", **_NAMED),
    rule(r"\b(?:mit meiner|mit meinem|meine|mein|meiner|meinem) (?:partnerin|partner|freundin|"
         rf"freund|frau|mann|verlobten|verlobte) (?:heißt )?(?P<o>{N})\b", "partner",
         accept=lambda m: re.search(r"\b(?:zusammen\w*|wohnt bei mir|verheiratet|verlobt|"
                                    r"beziehung|hochzeit)", m.string, re.I) is not None,
         **_NAMED),
    rule(rf"^(?P<o>{N}) und ich (?:haben uns (?:getrennt|scheiden lassen)|sind nicht mehr "
         r"zusammen|sind geschieden)", "partner", negated=True, **_NAMED),
    rule(rf"\bich bin nicht mehr mit (?P<o>{N}) {_TOGETHER_DE}", "partner", negated=True,
         **_NAMED),
    rule(rf"\bmit (?P<o>{N}) schluss gemacht", "partner", negated=True, **_NAMED),
    rule(rf"\bmich (?:[\w.]+ ){{0,3}}?von (?P<o>{N}) (?:getrennt|scheiden lassen)", "partner",
         negated=True, **_NAMED),
)

RULES: tuple[Rule, ...] = (*AGES, *PARTNERS)


_LISTED = re.compile(
    rf"(?P<names>{N}(?:,? (?:and|und|&) {N})+),? (?:(?:both|beide|just|gerade|jetzt|now) )*"
    rf"(?:turned|are|sind|wurden|have turned|haben) {AGE}\b{_NOT_AN_AGE}"
)


def ages_of_named(statement: str, names: Iterable[str]) -> list[tuple[str, str]]:
    """(name, age) for each relative named in `statement` whose age it gives ("Mia who's 7",
    "Zoe, she's 9", "Lilly, die 8 ist", "Mia ist 7")."""
    found = []
    names = list(dict.fromkeys(names))
    # "Ada and Eli, just turned 3": one age for a list of names.
    for listed in _LISTED.finditer(statement):
        years = age(listed, listed.group("o"))
        found += [(name, years) for name in names
                  if years is not None and re.search(rf"\b{re.escape(name)}\b", listed["names"])]
    for name in names:
        pattern = re.compile(
            rf"\b{re.escape(name)}\b,?\s+(?:(?:(?:and|und)\s+)?(?:who|she|he|sie|er|die|der)"
            rf"(?:'s|\s+is|\s+ist)?"
            rf"\s+|(?:(?:und|and)\s+)?(?:is|'s|ist)\s+)(?:(?:now|jetzt|just|gerade|schon) )?"
            rf"{AGE}\b{_NOT_AN_AGE}",
            re.IGNORECASE,
        )
        for match in pattern.finditer(statement):
            years = age(match, match.group("o"))
            if years is not None:
                found.append((name, years))
        found += _listed_age(statement, name)
    return found


def _listed_age(statement: str, name: str) -> list[tuple[str, str]]:
    """"Ezra (8)"; "Lotte ist 14 und Greta 11": a name in a list of ages, its verb gapped."""
    plain = rf"\b{re.escape(name)} \(\s*(?P<o>\d{{1,3}})\s*\)"
    gapped = (rf"\b(?:is|ist) {AGE}{_NOT_AN_AGE}\b[^.!?;]*?\b(?:and|und|,) "
              rf"{re.escape(name)} (?P<g>{AGE_WORDS})(?=\s*(?:[.!,;]|$))")
    found = []
    for match in re.finditer(plain, statement):
        found.append((name, age(match, match.group("o"))))
    for match in re.finditer(gapped, statement, re.IGNORECASE):
        found.append((name, age(match, match.group("g"))))
    return [(who, years) for who, years in found if years is not None]
