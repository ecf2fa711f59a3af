"""Likes, dislikes and constraints said idiomatically, EN and DE ("Jazz bores me", "X is not
for me", "I'm crazy about X", "X ist nicht so meins", "Mit X kann ich wenig anfangen", "X
gives me hives", "I keep kosher"), and what the user gave up or no longer does."""

from __future__ import annotations

import re
from collections.abc import Callable

from memlane.domain.facts.patterns.de import infinitive
from memlane.domain.facts.patterns.lexicon import CONSUMABLES, DETERMINERS_DEICTIC
from memlane.domain.facts.rules import ObjectKind, Rule, alternation, ended, rule

LIST = ObjectKind.LIST
W = r"[\wäöüÄÖÜß-]+"
# A thing named first: one to four words, no verb-like function word among them.
THING = rf"(?P<o>(?!(?:I|it|this|that|there|he|she|they|we|you|es|das|ich)\b){W}(?: {W}){{0,3}}?)"
_GAVE_UP = r"(?:quit|stopped|gave up|given up|cut out|cut down on|kicked)"
_CONSUMED = alternation(CONSUMABLES)


def _not_deictic(_: re.Match[str], value: str) -> str | None:
    """'I love this song', 'that idea', 'dieser Serie' point at something said, not a taste."""
    return None if value.split()[0].casefold() in DETERMINERS_DEICTIC else value


def _gave_up(_: re.Match[str], value: str) -> str | None:
    """'drinking coffee' -> 'coffee'; 'smoking' stays; 'my job' is no habit given up."""
    words = value.split()
    if words[0].casefold() in ("drinking", "eating", "having", "taking", "using"):
        words = words[1:]
    thing = " ".join(words)
    return thing if thing and re.fullmatch(rf"(?:{_CONSUMED})", thing, re.I) else None


def _as(value: str) -> Callable[[re.Match[str], str], str]:
    """A shape that names the habit itself ("I don't smoke" -> "smoking")."""
    return lambda _match, _object: value


def _disliked_activity(match: re.Match[str], _: str) -> str | None:
    """'ich fliege nicht gern' -> 'fliegen'."""
    return infinitive(match.group("verb"))


LIKE = {"shape": _not_deictic}

RULES: tuple[Rule, ...] = (
    # EN likes.
    rule(rf"^{THING} (?:is|are) (?:my (?:life|passion|thing|jam|happy place)|what keeps me "
         r"(?:sane|going|happy))\b", "likes", **LIKE),
    rule(r"\bI(?:'m| am) (?:\w+ )?(?:crazy|mad|nuts|obsessed) (?:about|with) "
         r"(?P<o>.+)", "likes", kind=LIST, **LIKE),
    rule(r"\bI(?:'m| am) (?:(?:a bit|kind|sort) of )?a (?:total |real |complete )?sucker for "
         r"(?P<o>.+)", "likes", **LIKE),
    rule(r"\bI could eat (?P<o>.+?) every (?:day|single day|night|week)\b", "likes"),
    rule(r"^nothing beats (?P<o>.+)", "likes", **LIKE),
    rule(r"\bI(?:'ve| have) (?:always )?been (?:a |an )?(?:big |huge |massive )?fan of "
         r"(?P<o>.+)", "likes", **LIKE),
    rule(rf"^{THING} (?:is|are) more my thing\b", "prefers"),
    rule(r"\b(?:my )?(?:absolute |all-time )?(?:favou?rite|fave) (?:\w+ ){0,3}?(?:is|are) "
         r"(?P<o>.+)", "likes", unless=re.compile(r"\b(?:my |the )?favou?rite (?:is|part|one|"
                                                   r"thing about|bit)\b", re.I),
         **LIKE),
    # EN dislikes.
    rule(rf"^{THING} (?:bores? me|freaks? me out|disgusts? me)\b", "dislikes"),
    rule(rf"^{THING} (?:is|are) (?:not|n't|never) (?:really |quite )?(?:for me|my thing|my cup of "
         r"tea)\b", "dislikes"),
    rule(r"\bI(?:'m| am) not (?:big|keen|mad) on (?P<o>.+)", "dislikes", kind=LIST, **LIKE),
    rule(r"\bI(?:'ve| have) never (?:really )?(?:liked|enjoyed|been a fan of) (?P<o>.+)",
         "dislikes", kind=LIST, **LIKE),
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
    # DE likes and dislikes.
    rule(rf"^{THING} (?:ist|sind) (?:mein|meine) (?:leben|leidenschaft|ding|liebste[rs]? \w+)\b",
         "likes", **LIKE),
    rule(r"\bich bin (?:\w+ )?(?:verrückt nach|besessen von|begeistert von) (?P<o>.+)", "likes",
         kind=LIST, **LIKE),
    rule(r"\bich bin (?:ein |eine )?(?:\w+ )?(?P<o>[A-ZÄÖÜ][\wäöüß]+)-fan\b", "likes"),
    rule(r"\bich bin (?:\w+ )?im (?P<o>[A-ZÄÖÜ]\w+) drin\b", "likes"),
    rule(rf"^{THING} (?:ist|sind) (?:nicht so|nicht|nichts) (?:so )?(?:meins|mein ding|für mich)\b",
         "dislikes"),
    rule(rf"^{THING} (?:langweilt|langweilen) mich\b", "dislikes"),
    rule(r"^mit (?P<o>.+?) kann ich (?:wenig|nichts|nicht viel|gar nichts) anfangen\b",
         "dislikes"),
    rule(r"\bich mochte (?P<o>.+?) (?:noch )?nie\b", "dislikes"),
    rule(r"\bich (?P<verb>[a-zäöüß]+e) (?:\w+ )?nicht (?:so |besonders |sehr |wirklich )?gerne?\b",
         "dislikes", group="verb", shape=_disliked_activity, reject_pronouns=False),
    rule(r"\bich (?:hasse|liebe) es,? (?P<o>(?!wenn\b|dass\b|wie\b).+\bzu\w*\b.*)", "dislikes",
         accept=lambda m: "hasse" in m.group(0).casefold()),
    rule(r"\bich liebe es,? (?P<o>(?!wenn\b|dass\b|wie\b).+\bzu\w*\b.*)", "likes"),
    rule(r"\bich bin kein(?:e)? (?:großer |großes |riesiger |\w+ )?fan von (?P<o>.+)",
         "dislikes", kind=LIST),
    rule(rf"^{THING} interessiert mich (?:überhaupt |gar )?nicht mehr\b", "likes", negated=True),
    rule(rf"^(?P<o>{W}(?: {W})?) (?:ist|sind) mir lieber\b", "prefers"),
    rule(r"\bich (?P<verb>[a-zäöüß]+e) lieber (?P<rest>nicht .+?)(?: als\b.*)?$", "prefers",
         group="verb",
         shape=lambda m, v: f"{m.group('rest').rstrip(' .!?')} {infinitive(m.group('verb'))}",
         reject_pronouns=False),
    # DE constraints and habits given up.
    rule(r"^von (?P<o>.+?) bekomme ich (?:\w+ )?(?:ausschlag|pickel|juckreiz|atemnot|quaddeln)",
         "allergic_to"),
    rule(r"\bich vertrage (?P<o>(?!kein|nicht)\w.*?) nicht\b", "intolerant_to"),
    rule(r"\bich bin (?:\w+ )?hochallergisch (?:gegen|auf) (?P<o>.+)", "allergic_to", kind=LIST,
         confidence=0.95),
    rule(r"\bich (?:esse|lebe|ernähre mich) (?:[\w.]+ ){0,3}?(?P<o>halal|koscher|vegan|"
         r"vegetarisch|salzarm|zuckerfrei|glutenfrei|laktosefrei|ketogen|pescetarisch)\b",
         "diet"),
    rule(r"\bich (?P<o>rauche (?:nicht|nie|kein\w*)(?: mehr)?)\s*[.!]?$", "avoids",
         shape=_as("Rauchen")),
    rule(r"\bich (?P<o>trinke (?:nicht|nie)(?: mehr)?)\s*[.!]?$", "avoids",
         shape=_as("Alkohol")),
    rule(r"\bmit dem (?P<o>rauchen|trinken|kiffen) aufgehört\b", "avoids",
         shape=lambda m, v: v.capitalize()),
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
