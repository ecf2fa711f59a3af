"""German fact patterns for what the user commits to, must respect (constraints), and is like."""

from __future__ import annotations

import re

from memlane.domain.facts.dates import mentions_date
from memlane.domain.facts.patterns.lexicon import (
    LIMIT_VERBS_DE,
    PERSON_ADJECTIVES_DE,
    RULE_VERBS_DE,
    TRAIT_ADJECTIVES_DE,
    TRAIT_MARKERS,
    TRAIT_NOUNS_DE,
)
from memlane.domain.facts.rules import ObjectKind, Rule, rule

LIST = ObjectKind.LIST
_INFINITIVE_END = re.compile(r"(?:en|ern|eln)$")
_TIME_CUE = re.compile(
    r"\b(?:bis|vor|morgen|heute|übermorgen|nächst\w*|am|spätestens|ab|diese[nrs]? (?:woche|"
    r"monat|jahr|wochenende)|im (?:januar|februar|märz|april|mai|juni|juli|august|september|"
    r"oktober|november|dezember)|ende|bevor|nach dem (?:mittagessen|essen|frühstück|"
    r"feierabend|termin|meeting|training))\b",
    re.IGNORECASE,
)
_NEGATION_WORD = re.compile(r"\b(?:nicht|nichts|kein\w*)\b", re.IGNORECASE)
_DROPPED_NEGATION = re.compile(r"\b(?:nicht|kein(?:e|en|er|em|es)?)\s+", re.IGNORECASE)
_REASON = re.compile(r"\bwegen (?:\w+ ){1,2}?(?=(?:nicht|nichts|kein\w*)\b)", re.IGNORECASE)
_RULE_POLARITY = re.compile(
    r"\b(?:nie|niemals|nicht|nichts|immer|niemand\w*|kein(?:e|en|er|em|es)?)\b", re.IGNORECASE
)
_RULE_DROP = re.compile(r"\b(?:bitte|bloß|doch|mal|einfach)\s+", re.IGNORECASE)
_FEARS = {"flug": "Fliegen", "höhen": "Höhen", "spinnen": "Spinnen", "prüfungs": "Prüfungen",
          "platz": "engen Räumen"}
_INTENSIFIERS = frozenset({
    "sehr", "ziemlich", "eher", "etwas", "total", "echt", "recht", "bisschen", "wenig", "ganz",
    "schön", "von", "natur", "aus", "eigentlich", "oft", "schon", "immer", "relativ", "extrem",
    "unglaublich", "furchtbar", "schrecklich", "generell", "grundsätzlich", "im", "grunde",
    "wirklich", "so", "ein", "eine", "einer", "leider",
})
_INFLECTION = re.compile(r"(?:er|es|en|em|e)$")
# Words of degree, inflected before a noun: "ein richtiger Morgenmensch", "totaler".
_DEGREE_DE = re.compile(r"^(?:richtig|total|echt|absolut|riesig|groß|wahr|extrem|komplett|"
                        r"typisch|halt|eben|einfach)(?:e|er|es|en)?$", re.IGNORECASE)
_TRAIT_HEADS_DE = re.compile(r"(?:mensch|muffel|aufsteher|aufsteherin|"
                             r"schläfer|schläferin|eule)$")
COMMIT = {"keep_time": True, "reject_pronouns": False, "confidence": 0.8}

# A limit keeps its date and its condition ("while on these meds", "wenn ich ...").
_LIMIT: dict[str, object] = {"keep_time": True, "keep_condition": True}


def _last_word(text: str) -> str:
    return text.split()[-1].casefold() if text.split() else ""


def _plan(_: re.Match[str], action: str) -> str | None:
    """An action that ends in an infinitive and is not a 'never'."""
    first = action.split()[0].casefold() if action.split() else ""
    if first in {"nie", "niemals", "nicht", "wohl", "vielleicht"}:
        return None
    last = _last_word(action)
    if last in _NOT_AN_ACTION_DE or first in ("es", "das"):
        return None
    return action if _INFINITIVE_END.search(last) or last in ("sein", "tun") else None


# Verbs that defer a decision, as "I'll see", "I'll try", "I'll think about it" do in English:
# "ich werde morgen sehen", "ich versuche es morgen" promise nothing.
_NOT_AN_ACTION_DE = frozenset({"sehen", "schauen", "gucken", "versuchen", "probieren",
                               "überlegen", "nachdenken", "abwarten"})


def _dated_plan(match: re.Match[str], action: str) -> str | None:
    """A plan is a commitment when it names when ("ich werde dich vermissen" is none)."""
    if not (_TIME_CUE.search(match.string) or mentions_date(match.string)):
        return None
    return _plan(match, action)


def _limit(match: re.Match[str], action: str) -> str | None:
    """'keinen Alkohol trinken' -> 'Alkohol trinken'; 'kann' only for lasting limits."""
    if not _NEGATION_WORD.search(action):
        return None
    action = _DROPPED_NEGATION.sub("", _REASON.sub("", action)).strip()
    # "das sagen" points at something said before, and names no limit.
    if re.match(r"(?:das|es|dies|so ?was)\b", action, re.IGNORECASE):
        return None
    verb = _last_word(action)
    if match.group("modal").casefold() == "kann" and verb not in LIMIT_VERBS_DE:
        return None
    return action if action and _INFINITIVE_END.search(verb) else None


def _standing_rule(_: re.Match[str], order: str) -> str | None:
    """'Plane bitte nie Termine vor 9 Uhr' -> 'plane nie Termine vor 9 Uhr': the polarity
    ("nie", "keine", "immer") is the rule and stays; "bitte" goes."""
    words = order.split()
    if not words or words[0].casefold() not in RULE_VERBS_DE or not _RULE_POLARITY.search(order):
        return None
    rest = _RULE_DROP.sub("", " ".join(words[1:]) + " ").strip()
    return f"{words[0].casefold()} {rest}".strip()


def _fear(_: re.Match[str], prefix: str) -> str | None:
    return _FEARS.get(prefix.casefold())


def _capitalised(_: re.Match[str], value: str) -> str | None:
    return value[:1].upper() + value[1:]


def trait_de(_: re.Match[str], phrase: str) -> str | None:
    """The trait that opens `phrase` ("ein sehr geduldiger Mensch" -> "geduldig"), or None."""
    words = phrase.split()
    lowered = phrase.casefold()
    marked = any(re.search(rf"\b{marker}\b", lowered) for marker in TRAIT_MARKERS)
    start = 0
    while start < len(words) and (words[start].casefold() in _INTENSIFIERS
                                  or _DEGREE_DE.match(words[start])):
        start += 1
    rest = words[start:]
    if not rest:
        return None
    # A compound whose head names a kind of person: "Linkshänderin", "Morgenmuffel".
    if rest[0] in TRAIT_NOUNS_DE or (rest[0][:1].isupper() and _TRAIT_HEADS_DE.search(rest[0])):
        return rest[0]
    pair = " ".join(w.casefold() for w in rest[:2])
    if pair in TRAIT_ADJECTIVES_DE:
        return " ".join(rest[:2])
    word = rest[0].casefold()
    for stem in (word, _INFLECTION.sub("", word)):
        if stem in TRAIT_ADJECTIVES_DE or (marked and stem in PERSON_ADJECTIVES_DE):
            return stem
    return None


COMMITMENT: tuple[Rule, ...] = (
    rule(r"\bich werde (?P<o>.+)", "commits_to", shape=_dated_plan, **COMMIT),
    rule(r"^(?:[\wäöüÄÖÜß.]+ ){1,3}werde ich (?P<o>.+)", "commits_to", shape=_dated_plan,
         **COMMIT),
    rule(r"\b(?:ich habe|habe ich) (?:[\wäöüÄÖÜß]+ ){0,2}?versprochen,? (?:dass ich )?(?P<o>.+)",
         "commits_to", **COMMIT),
    rule(r"\bich verspreche(?: dir| ihnen| euch| dem \w+| der \w+)?,? (?:dass ich )?(?P<o>.+)",
         "commits_to", **COMMIT),
    rule(r"\bich habe (?:zugesagt|mich verpflichtet|mir (?:fest )?vorgenommen),? "
         r"(?:dass ich )?(?P<o>.+)", "commits_to", **COMMIT),
    rule(r"\bich habe vor,? (?P<o>.+\bzu \w+)", "commits_to", **COMMIT),
    rule(r"\bich muss (?P<o>.+)", "commits_to", shape=_dated_plan, **COMMIT),
    rule(r"\bich will (?P<o>.+)", "commits_to", shape=_dated_plan, **COMMIT),
)

CONSTRAINT: tuple[Rule, ...] = (
    rule(r"\bich bin (?:(?!nicht\b|kein\w*\b)\w+ ){0,3}?allergisch (?:gegen|auf) (?P<o>.+)",
         "allergic_to", kind=LIST, confidence=0.95),
    rule(r"\bich bin (?:(?!nicht\b|kein\w*\b)\w+ )?gegen (?P<o>.+?) (?:\w+ )?(?:hoch)?allergisch\b",
         "allergic_to", confidence=0.95),
    rule(r"\bich reagiere (?:\w+ )?allergisch (?:auf|gegen) (?P<o>.+)", "allergic_to",
         kind=LIST),
    rule(r"\bich habe (?:eine |einige )?(?:\w+ )?allergien? (?:gegen|auf) (?P<o>.+)",
         "allergic_to", kind=LIST),
    rule(r"\bich habe (?:eine )?(?:(?:schwere|leichte|starke|heftige) )?"
         r"(?P<o>[\wäöüß]+?)-?allergie\b", "allergic_to",
         shape=_capitalised),
    rule(r"\bich habe (?:eine )?(?P<o>[\wäöüß]+?)-?intoleranz\b", "intolerant_to",
         shape=_capitalised),
    rule(r"\bich bin (?P<o>[\wäöüß]+?)-?intolerant\b", "intolerant_to", shape=_capitalised),
    rule(r"\bich vertrage (?:kein(?:e|en|er)?|nicht) (?P<o>.+)", "intolerant_to", kind=LIST),
    rule(r"\bich (?P<modal>darf|kann) (?P<o>.+)", "cannot", shape=_limit, **_LIMIT,
         reject_pronouns=False),
    rule(r"\b(?P<modal>darf|kann) ich (?P<o>.+)", "cannot", shape=_limit, **_LIMIT,
         reject_pronouns=False),
    rule(r"^(?:bitte )?(?P<o>[\wäöüß]+\b.*)$", "rule", shape=_standing_rule, **_LIMIT,
         reject_pronouns=False, confidence=0.8),
    rule(r"\bich (?:esse|trinke|rauche|konsumiere) (?:(?:grundsätzlich|generell) )?(?:kein(?:e|en|"
         r"er)?|nie|niemals|nicht) (?P<o>.+)", "avoids"),
    rule(r"\bich (?:bin|lebe) (?:(?:jetzt|mittlerweile|inzwischen|seit kurzem|schon lange|nur noch|"
         r"nur|seit \w+(?: \w+)?|vor \w+ \w+|letzte[nsm]? \w+|im \w+|heute|gestern) )?"
         r"(?:ein |eine |strenge[r]? )?(?P<o>vegetarier(?:in)?|veganer(?:in)?|pescetarier(?:in)?|"
         r"vegan|vegetarisch|pescetarisch)\b", "diet", confidence=0.9),
    rule(r"\bich ernähre mich (?:\w+ )?(?P<o>vegan|vegetarisch|pescetarisch|glutenfrei|"
         r"laktosefrei|ketogen|koscher|halal)\b", "diet", confidence=0.9),
    rule(r"\bich bin (?P<o>diabetiker(?:in)?|epileptiker(?:in)?|asthmatiker(?:in)?|schwanger|"
         r"zuckerkrank|taub|blind|farbenblind)\b", "condition"),
    rule(r"\bich habe (?P<o>diabetes|asthma|epilepsie|migräne|zöliakie|bluthochdruck|adhs|"
         r"autismus|legasthenie|tinnitus)\b",
         "condition"),
    rule(r"\bich habe (?:\w+ )?angst vor (?P<o>.+)", "afraid_of", kind=LIST),
    rule(r"\bich habe (?P<o>flug|höhen|spinnen|prüfungs|platz)angst\b", "afraid_of",
         shape=_fear),
)

def _not_trait_de(match: re.Match[str], phrase: str) -> str | None:
    """'kein Morgenmensch', 'nicht geduldig': a trait said in the negative keeps it."""
    trait = trait_de(match, phrase)
    if trait is None:
        return None
    word = match.group("neg").casefold().split()[-1]
    return f"{word} {trait}" if word in ("kein", "keine") else f"nicht {trait}"


TRAIT: tuple[Rule, ...] = (
    rule(r"\bich bin (?P<neg>kein|keine|(?:überhaupt |gar |absolut )?nicht) (?P<o>.+)", "trait",
         shape=_not_trait_de, keep_time=True, reject_pronouns=False, confidence=0.7,
         unless=re.compile(r"\bmehr\b|\bmit\b", re.I)),
    rule(r"\bich bin (?P<o>.+)", "trait", shape=trait_de, keep_time=True, reject_pronouns=False,
         confidence=0.75),
    rule(r"\bich neige (?:dazu,? |zu )(?P<o>.+)", "trait", confidence=0.7),
)
