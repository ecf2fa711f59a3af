"""English fact patterns for what the user commits to, must respect (constraints), and is like."""

from __future__ import annotations

import re

from memlane.domain.facts.dates import mentions_date
from memlane.domain.facts.patterns.lexicon import (
    LIMIT_VERBS_EN,
    PERSON_ADJECTIVES_EN,
    RULE_VERBS_EN,
    TRAIT_ADJECTIVES_EN,
    TRAIT_MARKERS,
    TRAIT_NOUNS_EN,
)
from memlane.domain.facts.rules import ObjectKind, Rule, rule

LIST = ObjectKind.LIST
I_AM = r"\bI(?:'m| am)"
# Words after "I'll" that promise nothing ("I'll be honest", "I will never understand ...").
_NOT_A_PROMISE = frozenset({
    "never", "not", "probably", "maybe", "possibly", "perhaps", "be", "see", "think", "try",
    "guess", "bet", "admit", "have", "need", "just", "always", "die",
})
_NOT_AN_ACTION = frozenset({
    "the", "a", "an", "my", "your", "his", "her", "our", "their", "this", "that", "be", "bed",
    "work", "school", "church", "town", "sleep", "die", "miss", "cry", "need", "have", "lose",
})
_WHEN = (r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow|tonight|the end|end of|"
         r"january|february|march|april|may|june|july|august|september|october|november|"
         r"december|\d|next \w+|this \w+|noon|midnight")
_DEADLINE = re.compile(
    rf"\b(?:(?:by|before|until|till) (?:the )?(?:{_WHEN})|tomorrow|tonight|today|next (?:week|"
    r"weekend|month|year|spring|summer|autumn|fall|winter|(?:mon|tues|wednes|thurs|fri|satur|"
    r"sun)day)|this (?:week|weekend|month|year|"
    r"morning|afternoon|evening)|on (?:mon|tues|wednes|thurs|fri|satur|sun)day|at \d|end of|"
    r"in (?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december)|after (?:lunch|dinner|work|school|the (?:meeting|weekend|holidays))|later today)\b",
    re.IGNORECASE,
)
_ONE_OFF = re.compile(r"\b(?:today|tonight|tomorrow|this (?:week|weekend|evening)|right now)\b",
                      re.IGNORECASE)
_CALENDAR = frozenset({"monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                       "sunday", "montag", "dienstag", "mittwoch", "donnerstag", "freitag",
                       "samstag", "sonntag", "weekend", "wochenende", "morning", "january",
                       "december", "christmas", "weihnachten"})
_INTENSIFIERS = frozenset({
    "very", "quite", "pretty", "really", "rather", "extremely", "super", "so", "incredibly",
    "fairly", "generally", "usually", "naturally", "always", "bit", "little", "somewhat",
    "kind", "kinda", "too", "basically", "definitely", "honestly", "a", "an", "of", "by",
    "nature", "at", "heart", "totally", "such", "much", "total", "huge", "massive", "real",
    "proper", "complete", "absolute", "big", "true",
})
COMMIT = {"keep_time": True, "reject_pronouns": False, "confidence": 0.8}
_POLARITY = re.compile(r"^(?:(?:never|always|don't|do not|ever|avoid|please)\s+)+", re.I)

# A limit keeps its date and its condition ("while on these meds", "wenn ich ...").
_LIMIT: dict[str, object] = {"keep_time": True, "keep_condition": True}


def _first_word(text: str) -> str:
    return text.split()[0].casefold() if text.split() else ""


def _timed(match: re.Match[str], action: str) -> bool:
    """An intention is a commitment when it names when: "I'll call you" is talk, "I'll call
    you tomorrow" is a plan."""
    return bool(_DEADLINE.search(action) or mentions_date(match.string))


def _promise(match: re.Match[str], action: str) -> str | None:
    if _first_word(action) in _NOT_A_PROMISE or "never" in action.split():
        return None
    return action if _timed(match, action) else None


def _action(match: re.Match[str], action: str) -> str | None:
    first = action.split()[0] if action.split() else ""
    if not first or first[0].isupper() or first.casefold() in _NOT_AN_ACTION:
        return None
    return action if _timed(match, action) else None


def _with_deadline(match: re.Match[str], action: str) -> str | None:
    return action if _timed(match, action) else None


def _lasting_limit(_: re.Match[str], action: str) -> str | None:
    words = action.casefold().split()
    if not words or _ONE_OFF.search(action):
        return None
    return action if words[0] in LIMIT_VERBS_EN or " ".join(words[:2]) in LIMIT_VERBS_EN else None


def _verb_stem(word: str) -> str:
    """'scheduling' -> 'schedule', 'planning' -> 'plan', 'booking' -> 'book'."""
    if not word.endswith("ing"):
        return word
    stem = word[:-3]
    if len(stem) > 2 and stem[-1] == stem[-2]:
        stem = stem[:-1]
    return stem if stem in RULE_VERBS_EN else stem + "e"


def _standing_rule(_: re.Match[str], action: str) -> str | None:
    """'never schedule meetings before 9' keeps its 'never' (its polarity is the rule)."""
    order = _POLARITY.sub("", action)
    return action if _verb_stem(_first_word(order)) in RULE_VERBS_EN else None


def trait_en(_: re.Match[str], phrase: str) -> str | None:
    """The trait that opens `phrase` ("a very patient person" -> "patient"), or None."""
    words = phrase.split()
    lowered = phrase.casefold()
    marked = any(re.search(rf"\b{marker}\b", lowered) for marker in TRAIT_MARKERS)
    start = 0
    while start < len(words) and words[start].casefold() in _INTENSIFIERS:
        start += 1
    rest = [w.casefold() for w in words[start:]]
    for size in (3, 2, 1):
        candidate = " ".join(rest[:size])
        if len(rest) >= size and (candidate in TRAIT_NOUNS_EN or candidate in TRAIT_ADJECTIVES_EN
                                  or (marked and candidate in PERSON_ADJECTIVES_EN)):
            return " ".join(words[start:start + size])
    return None


def _tendency(_: re.Match[str], habit: str) -> str | None:
    return None if _first_word(habit) in {"agree", "think", "believe", "say"} else habit


def _not_trait(_: re.Match[str], phrase: str) -> str | None:
    """'not a morning person', 'not patient': a trait said in the negative keeps its 'not'
    (but "not patient with slow websites" is about websites)."""
    if re.search(r"\b(?:with|about|at|when|around|today|tonight|right now)\b", phrase, re.I):
        return None
    trait = trait_en(_, phrase)
    if trait is None:
        return None
    noun = trait.casefold() in TRAIT_NOUNS_EN
    article = ("an " if trait[:1].casefold() in "aeiou" else "a ") if noun else ""
    return f"not {article}{trait}"


def _an_allergen(_: re.Match[str], thing: str) -> str | None:
    """No day or month is an allergen ("allergic to Mondays, haha")."""
    return None if thing.split()[0].casefold().rstrip("s") in _CALENDAR else thing


COMMITMENT: tuple[Rule, ...] = (
    rule(r"\bI(?:'ll| will| shall) (?P<o>.+)", "commits_to", shape=_promise, **COMMIT),
    rule(I_AM + r" (?:going|gonna) to (?P<o>.+)", "commits_to", shape=_action, **COMMIT),
    rule(r"\bI'm gonna (?P<o>.+)", "commits_to", shape=_action, **COMMIT),
    rule(r"\bI(?:'ve| have)? promised (?:\w+ ){0,3}?(?:that )?(?:I|we)(?:'d| would|'ll| will) "
         r"(?P<o>.+)", "commits_to", **COMMIT),
    rule(r"\bI(?:'ve| have)? promised (?:myself |\w+ )?to (?P<o>.+)", "commits_to", **COMMIT),
    rule(r"\bI(?: have to| need to| must| have got to|'ve got to| gotta| got to) (?P<o>.+)",
         "commits_to",
         shape=_with_deadline, **COMMIT),
    rule(r"\bI(?:'ve| have)? (?:agreed|committed|pledged|vowed|signed up) to (?P<o>.+)",
         "commits_to", **COMMIT),
    rule(r"\bI(?:'m| am)? (?:plan|planning) to (?P<o>.+)", "commits_to", **COMMIT),
)

CONSTRAINT: tuple[Rule, ...] = (
    rule(r"\bI(?:'m| am|'ve been| have been) (?:(?:very|severely|highly|really|so|extremely|"
         r"deathly|mildly|slightly) )?allergic to (?P<o>.+)", "allergic_to", kind=LIST,
         confidence=0.95, shape=_an_allergen),
    rule(r"\bI have (?:a |an )?(?:(?:severe|mild|bad|serious|slight|strong) )?(?P<o>[\w-]+"
         r"(?: [\w-]+)?) allerg(?:y|ies)\b", "allergic_to", confidence=0.9),
    rule(r"\bI have (?:an )?allerg(?:y|ies) (?:to|against) (?P<o>.+)", "allergic_to", kind=LIST),
    rule(I_AM + r" (?P<o>\w+)[- ]intolerant\b", "intolerant_to"),
    rule(I_AM + r" intolerant (?:to|of) (?P<o>.+)", "intolerant_to", kind=LIST),
    rule(r"\bI have (?:a |an )?(?P<o>\w+) intolerance\b", "intolerant_to"),
    rule(r"\bI (?:can't|cannot|can not|am unable to|'m unable to|am not able to|'m not able to) "
         r"(?P<o>.+)", "cannot", shape=_lasting_limit, **_LIMIT, reject_pronouns=False),
    rule(I_AM + r" not (?:allowed|permitted|supposed) to (?P<o>.+)", "cannot", **_LIMIT,
         reject_pronouns=False),
    rule(r"\bI (?:must not|mustn't) (?P<o>.+)", "cannot", **_LIMIT, reject_pronouns=False),
    rule(r"^(?:please )?(?P<o>(?:never|always|don't ever|do not ever|don't|do not|avoid)\s+"
         r"(?:ever\s+)?.+)", "rule", shape=_standing_rule, **_LIMIT,
         reject_pronouns=False, confidence=0.8),
    rule(r"\bI (?:don't|do not|never|no longer) (?:eat|drink|consume|touch|smoke) "
         r"(?P<o>(?!(?:after|before|past|until|till|at|on|in|during|when|while)\b).+)",
         "avoids", **_LIMIT),
    rule(r"\bI(?:'m| am|'ve been| have been|'ve become| have become| became| went| turned|"
         r"'ve gone| have gone) (?:(?:a|now|just|only|strictly|"
         r"fully|mostly|currently|also) )*(?P<o>vegan|vegetarian|pescatarian|pescetarian|keto|"
         r"kosher|halal|flexitarian)\b", "diet", confidence=0.9),
    rule(r"\bI(?:'m| am|'ve been| have been) (?P<o>diabetic|epileptic|asthmatic|pregnant|coeliac|"
         r"celiac|deaf|blind|"
         r"colou?r[- ]?blind|anaemic|anemic|hard of hearing|autistic|dyslexic)\b", "condition"),
    rule(r"\bI(?: have|'ve got| have got) (?P<o>diabetes|type [12] diabetes|asthma|epilepsy|celiac "
         r"disease|coeliac disease|migraines|adhd|autism|dyslexia|a heart condition|high blood "
         r"pressure)\b", "condition"),
    rule(r"\bI(?:'m| am|'ve been| have been|'ve always been| have always been) (?:really |very |so "
         r"|terribly |deathly |quite )?(?:afraid|scared|terrified|"
         r"frightened) of (?P<o>.+)", "afraid_of", kind=LIST),
    rule(r"\bI have (?:a |an )?(?:\w+ )?(?:fear|phobia) of (?P<o>.+)", "afraid_of"),
)

TRAIT: tuple[Rule, ...] = (
    rule(I_AM + r" not (?P<o>.+)", "trait", shape=_not_trait, keep_time=True,
         reject_pronouns=False, confidence=0.7),
    rule(r"\bI(?:'ve| have) never been (?P<o>.+)", "trait", shape=_not_trait, keep_time=True,
         reject_pronouns=False, confidence=0.7),
    rule(I_AM + r" (?P<o>.+)", "trait", shape=trait_en, keep_time=True, reject_pronouns=False,
         confidence=0.75),
    rule(r"\bI tend to (?P<o>.+)", "trait", shape=_tendency, confidence=0.7),
)
