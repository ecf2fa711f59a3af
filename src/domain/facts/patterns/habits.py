"""Constraints and habits, EN and DE: what the user gave up or no longer does ("I quit
smoking", "Ich rauche nicht mehr", "mit dem Zucker aufgehört"), what they may not eat or
react to ("X gives me hives", "Ich vertrage X nicht"), and states that ended ("I'm not vegan
anymore", "Vor dem Fliegen habe ich keine Angst mehr")."""

from __future__ import annotations

import re
from collections.abc import Callable

from memlane.domain.facts.patterns.lexicon import CONSUMABLES
from memlane.domain.facts.rules import ObjectKind, Rule, alternation, ended, rule

LIST = ObjectKind.LIST
_GAVE_UP = r"(?:quit|stopped|gave up|given up|cut out|cut down on|kicked)"
_CONSUMED = alternation(CONSUMABLES)
# A habit given up named by its gerund alone is the habit itself.
_HABITS = {"smoking": "smoking", "drinking": "alcohol", "rauchen": "Rauchen",
           "trinken": "Alkohol"}


def _as(value: str) -> Callable[[re.Match[str], str], str]:
    """A shape that names the habit itself ("I don't smoke" -> "smoking")."""
    return lambda _match, _object: value


def _gave_up(_: re.Match[str], value: str) -> str | None:
    """'drinking coffee' -> 'coffee'; 'smoking' stays; 'my job' is no habit given up."""
    # "coffee for Lent": what was given up, not for how long or why.
    value = re.sub(r"\s+(?:for|during|since|in|at|on|after|before|because)\b.*$", "", value)
    if value.casefold() in _HABITS:
        return _HABITS[value.casefold()]
    words = value.split()
    if words[0].casefold() in ("drinking", "eating", "having", "taking", "using"):
        words = words[1:]
    thing = " ".join(words)
    return thing if thing and re.fullmatch(rf"(?:{_CONSUMED})", thing, re.I) else None


# Words before a noun that say when, not what: "seit Jahren", "am Abend".
_TIME_PREPOSITIONS = frozenset({"seit", "vor", "am", "im", "um", "nach", "ab", "abends",
                                "unter", "bei"})


def _drunk(_: re.Match[str], value: str) -> str:
    """'trinke nicht mehr' -> Alkohol (the habit); 'trinke Kaffee nicht' -> Kaffee: German
    capitalises the noun drunk, not the adverbs ("trinke schon lange nicht")."""
    words = value.split()[1:]
    named = [w for i, w in enumerate(words)
             if w[:1].isupper() and (i == 0 or words[i - 1].casefold() not in _TIME_PREPOSITIONS)]
    return " ".join(named) if named else "Alkohol"


RULES: tuple[Rule, ...] = (
    # EN constraints and habits given up.
    rule(r"^(?P<o>[\w-]+(?: [\w-]+)?) gives? me (?:hives|a rash|rashes|a reaction|migraines?)\b",
         "allergic_to"),
    rule(r"\bI react (?:badly|allergically) to (?P<o>.+)", "intolerant_to", kind=LIST),
    rule(r"\bI keep (?P<o>kosher|halal)\b", "diet"),
    rule(r"\bI(?:'m| am) on a (?P<o>[\w-]+) diet\b", "diet"),
    rule(r"\bI suffer from (?P<o>.+)", "condition", kind=LIST),
    rule(r"\bI (?P<o>(?:don't|do not|no longer|never) smoke)\b(?!\s+(?!any ?more\b)\w)",
         "avoids", shape=_as("smoking")),
    rule(r"\bI (?P<o>(?:don't|do not|no longer|never) drink)\b(?!\s+(?!any ?more\b)\w)",
         "avoids", shape=_as("alcohol")),
    rule(rf"\bI(?:'ve| have)? {_GAVE_UP} (?P<o>.+)", "avoids", shape=_gave_up),
    rule(r"\bI(?:'m| am) off (?P<o>\w+) for good\b", "avoids", shape=_gave_up),
    rule(r"\bI(?:'ve| have)? (?:been |was |got )?(?:laid off|let go|fired|made redundant) "
         r"(?:from|by) "
         r"(?P<o>.+)",
         "works_at", negated=True, stops=("as", "and", "last", "in")),
    # DE constraints and habits given up.
    rule(r"^von (?P<o>.+?) bekomme ich (?:\w+ )?(?:ausschlag|pickel|juckreiz|atemnot|quaddeln)",
         "allergic_to"),
    rule(r"\bich vertrage (?P<o>(?!kein|nicht)\w.*?) nicht\b", "intolerant_to"),
    rule(r"\bich bin (?:\w+ )?hochallergisch (?:gegen|auf) (?P<o>.+)", "allergic_to", kind=LIST,
         confidence=0.95),
    rule(r"\bich (?:esse|lebe|ernähre mich) (?:[\w.]+ ){0,3}?(?P<o>halal|koscher|vegan|"
         r"vegetarisch|salzarm|zuckerfrei|glutenfrei|laktosefrei|ketogen|pescetarisch)\b",
         "diet"),
    rule(r"\bich (?P<o>rauche (?:[\w.]+ ){0,3}?(?:nicht|nie|kein\w*)(?: mehr)?)\s*(?:[.!;,]|$)",
         "avoids", shape=_as("Rauchen")),
    rule(r"\bich (?P<o>trinke (?:[\w.]+ ){0,3}?(?:nicht|nie)(?: mehr)?)\s*(?:[.!;,]|$)", "avoids",
         shape=_drunk),
    rule(r"\bich bin (?P<o>nichtraucher(?:in)?)\b", "avoids", shape=_as("Rauchen")),
    rule(r"\bI(?:'m| am) (?:a )?(?P<o>non-?smoker)\b", "avoids", shape=_as("smoking")),
    rule(r"\baufgehört,? zu (?P<o>rauchen|trinken)\b", "avoids", shape=_gave_up),
    rule(r"\bdas (?P<o>rauchen|trinken) aufgegeben\b", "avoids", shape=_gave_up),
    rule(r"\bmit dem (?P<o>rauchen|trinken) aufgehört\b", "avoids", shape=_gave_up),
    rule(rf"\bmit (?P<o>{_CONSUMED}) aufgehört\b", "avoids"),
    rule(rf"\baufgehört,? (?P<o>{_CONSUMED}) zu (?:trinken|essen|rauchen|nehmen)\b", "avoids"),
    rule(r"\bich bin (?:nicht mehr|kein(?:e)? \w*(?=\s+mehr)) ?(?P<o>vegan|vegetarisch|"
         r"vegetarier(?:in)?|veganer(?:in)?|pescetarier(?:in)?)\b", "diet", negated=True,
         shape=lambda m, v: v[:1].upper() + v[1:] if v.endswith(("er", "in")) else v),
    rule(r"\bI(?:'m| am) (?:no longer|not) (?:a |an )?(?P<o>vegan|vegetarian|pescatarian|"
         r"keto)\b", "diet", negated=True, accept=ended),
    rule(r"\bI(?:'m| am) (?:no longer|not) (?:working|employed) (?:at|for|with) (?P<o>.+)",
         "works_at", negated=True, accept=ended, stops=("as",)),
    rule(r"\bI(?:'m| am) (?:no longer|not) (?:afraid|scared|frightened) of (?P<o>.+)",
         "afraid_of", negated=True, accept=ended),
    rule(r"\bich habe (?:keine|nicht mehr) angst (?:mehr )?vor (?P<o>.+)", "afraid_of",
         negated=True, accept=ended),
    rule(r"\bich bin (?:nicht mehr|nicht länger) (?:\w+ )?allergisch (?:gegen|auf) (?P<o>.+)",
         "allergic_to", negated=True, kind=LIST),
    rule(r"\bI(?:'m| am) not (?:allergic|intolerant) to (?P<o>.+)", "allergic_to",
         negated=True, kind=LIST),
    rule(r"\bich bin nicht (?:\w+ )?allergisch (?:gegen|auf) (?P<o>.+)", "allergic_to",
         negated=True, kind=LIST),
)
