"""Likes and dislikes said idiomatically, EN and DE ("Jazz bores me", "X is not for me",
"I'm crazy about X", "I can't get enough of X", "X ist nicht so meins", "Mit X kann ich wenig
anfangen", "X geht mir auf die Nerven", "ich habe eine Schwäche für X")."""

from __future__ import annotations

import re

from memlane.domain.facts.patterns.de import infinitive
from memlane.domain.facts.patterns.lexicon import DETERMINERS_DEICTIC
from memlane.domain.facts.rules import ObjectKind, Rule, rule

LIST = ObjectKind.LIST
W = r"[\wäöüÄÖÜß-]+"
# A thing named first: one to four words, not opened by a pronoun, a possessive (a person or
# belonging of one: "my boss", "mein Chef", "your idea" is no taste for a kind of thing) or an
# adverb that leaves the subject for later ("Montags nervt mich alles").
_NOT_A_KIND = (r"I|it|this|that|there|he|she|they|we|you|es|das|ich|er|sie|du|wir|ihr|man|"
               r"alles|everything|everyone|everybody|nothing|nichts|my|your|his|her|our|their|"
               r"mein\w*|dein\w*|sein\w*|ihre?[mnrs]?|unser\w*|eure?[mnrs]?|"
               r"(?:mon|diens|mitt|donners|frei|sams|sonn)tags|morgens|abends|nachts|manchmal|"
               r"immer|oft|heute|gestern")
THING = rf"(?P<o>(?!(?:{_NOT_A_KIND})\b){W}(?: {W}){{0,3}}?)"
_INTENSIFIERS_DE = r"sehr|total|echt|wirklich|so|besonders|wahnsinnig|richtig|unheimlich"
_INTENSE_DE = rf"(?:(?:{_INTENSIFIERS_DE}) )*"


def _not_deictic(_: re.Match[str], value: str) -> str | None:
    """'I love this song', 'that idea', 'dieser Serie' point at something said, not a taste;
    'I can't bear to see you sad' is no thing either."""
    first = value.split()[0].casefold()
    return None if first in DETERMINERS_DEICTIC or first in ("to", "zu") else value


def _disliked_activity(match: re.Match[str], _: str) -> str | None:
    """'ich fliege nicht gern' -> 'fliegen'."""
    return infinitive(match.group("verb"))


def _liked_activity(match: re.Match[str], _: str) -> str | None:
    """'ich esse Sushi total gern' -> 'Sushi essen' ('ich klettere total gern' is another
    rule's: an intensifier alone is no object)."""
    rest = re.sub(rf"(?:\s*\b(?:{_INTENSIFIERS_DE})\b)+$", "", match.group("rest").strip())
    return f"{rest} {infinitive(match.group('verb'))}" if rest else None


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
    rule(r"^(?:nothing beats|there's nothing (?:better|like)|nothing better than) (?P<o>.+)",
         "likes", **LIKE),
    rule(r"\bI(?:'m| am) (?!not\b)(?:\w+ )?(?:hooked on|addicted to|all about|partial to|keen on) "
         r"(?P<o>.+)",
         "likes", kind=LIST, **LIKE),
    rule(r"\bI can't get enough of (?P<o>.+)", "likes", kind=LIST, **LIKE),
    rule(r"\bI(?:'ve| have)? (?:got )?a (?:real |soft |huge |big )?(?:soft spot|weakness) for "
         r"(?P<o>.+)",
         "likes", **LIKE),
    rule(r"\bI(?:'m| am) a (?:huge |big |real |total |massive |great |die-hard )?"
         r"(?P<o>(?!(?:huge|big|real|total|massive|great|die-hard)\b)[\w-]+(?: [\w-]+)?) "
         r"(?:fan|lover|fanatic|nut|enthusiast)\b", "likes",
         unless=re.compile(r"\b(?:fan of|not a)\b", re.I)),
    rule(rf"^{THING} (?:makes? me (?:so )?happy|is right up my (?:street|alley))\b",
         "likes"),
    rule(r"\bI never get tired of (?P<o>.+)", "likes", **LIKE),
    rule(r"\bnothing makes me (?:happier|as happy) (?:than|as) (?P<o>.+)", "likes", **LIKE),
    rule(r"\bmy go-to (?:[\w-]+ ){0,2}?(?:is|are) (?P<o>.+)", "likes", **LIKE),
    rule(r"\bI(?:'ve| have) (?:always )?been (?:a |an )?(?:big |huge |massive )?fan of "
         r"(?P<o>.+)", "likes", **LIKE),
    rule(rf"^{THING} (?:is|are) more my thing\b", "prefers"),
    rule(r"\bI(?:'d| would) (?:pick|choose|take) (?P<o>.+?) over\b", "prefers"),
    # EN dislikes.
    rule(rf"^{THING} (?:bores? me|freaks? me out|disgusts? me)\b", "dislikes"),
    rule(rf"^{THING} (?:is|are) (?:not|n't|never) (?:really |quite )?(?:for me|my thing|my cup of "
         r"tea)\b", "dislikes"),
    rule(r"\bI(?:'m| am) not (?:big|keen|mad|too keen|very keen|really keen) on (?P<o>.+)",
         "dislikes", kind=LIST, **LIKE),
    rule(r"\bI can(?:'t|not) bear (?P<o>.+)", "dislikes", kind=LIST, **LIKE),
    rule(rf"^{THING} (?:gets? on my nerves|drives? me (?:crazy|mad|nuts)|does nothing for me|"
         r"is (?:so )?overrated|isn't (?:really )?my thing)\b", "dislikes"),
    rule(r"\bI (?:really )?find (?P<o>.+?) (?:boring|annoying|overrated|tedious|unbearable|"
         r"awful|disgusting)\b", "dislikes", **LIKE),
    rule(r"\bI never (?:really )?liked (?P<o>.+)", "dislikes", kind=LIST, **LIKE),
    rule(r"\bI(?:'ve| have) never (?:really )?(?:liked|enjoyed|been a fan of) (?P<o>.+)",
         "dislikes", kind=LIST, **LIKE),
    # DE likes and dislikes.
    rule(rf"^{THING} (?:ist|sind) (?:mein|meine) (?:leben|leidenschaft|ding|liebste[rs]? \w+)\b",
         "likes", **LIKE),
    rule(r"\bich bin (?:\w+ )?(?:verrückt nach|besessen von|begeistert von) (?P<o>.+)", "likes",
         kind=LIST, **LIKE),
    rule(r"\bich bin (?:ein |eine )?(?:\w+ )?(?P<o>[A-ZÄÖÜ][\wäöüß-]+?)-fan\b", "likes"),
    rule(r"\bich bin (?:\w+ )?im (?P<o>[A-ZÄÖÜ]\w+) drin\b", "likes"),
    rule(rf"^{THING} (?:ist|sind) (?:nicht so|nicht|nichts) (?:so )?(?:meins|mein ding|für mich)\b",
         "dislikes"),
    rule(rf"^{THING} (?:langweilt|langweilen|nervt|nerven) mich\b", "dislikes"),
    rule(rf"^{THING} (?:geht|gehen) mir (?:total |echt |so )?auf die nerven\b", "dislikes"),
    rule(rf"^{THING} (?:ist|sind) (?:überhaupt |gar )?nicht mein fall\b", "dislikes"),
    rule(r"\bich bin kein (?:großer )?freund von (?P<o>.+)", "dislikes", kind=LIST),
    rule(r"\bich habe (?:eine )?(?:große |echte )?schwäche für (?P<o>.+)", "likes", **LIKE),
    rule(r"\bich kann (?:einfach )?nicht genug (?:von|bekommen von) (?P<o>.+?)(?: bekommen)?\s*"
         r"[.!]?$", "likes", **LIKE),
    rule(rf"^{THING} macht mir (?:(?:gerade|total|echt|so|richtig|viel|immer|wirklich|sehr) )*"
         r"spaß\b", "likes"),
    rule(r"\b(?:macht mich nichts|nichts macht mich) (?:so )?glücklich(?:er)? "
         r"(?:als|wie) (?P<o>.+)",
         "likes", **LIKE),
    rule(r"\bich (?P<verb>[a-zäöüß]+e) (?P<rest>(?!(?:nicht|kein\w*|dir|dich|euch|ihnen|ihm|ihr|"
         r"mir|mich|es|das|sie|ihn)\b)[\wäöüÄÖÜß -]+?) "
         + _INTENSE_DE + r"gerne?\s*[.!]?$", "likes", group="verb", shape=_liked_activity,
         reject_pronouns=False,
         unless=re.compile(r"\b(?:nicht|kein\w*|nie|würde|hätte|möchte)\b", re.I)),
    rule(r"^mit (?P<o>.+?) kann ich (?:wenig|nichts|nicht viel|gar nichts) anfangen\b",
         "dislikes"),
    rule(r"\bich mochte (?P<o>.+?) (?:noch )?nie\b", "dislikes"),
    rule(r"\bich (?P<verb>[a-zäöüß]+e) (?:\w+ )?nicht (?:so |besonders |sehr |wirklich )?gerne?\b",
         "dislikes", group="verb", shape=_disliked_activity, reject_pronouns=False),
    rule(r"\bich hasse es,? (?P<o>(?!wenn\b|dass\b|wie\b)[^,]*zu\w*[^,]*)", "dislikes"),
    rule(r"\bich liebe es,? (?P<o>(?!wenn\b|dass\b|wie\b)[^,]*zu\w*[^,]*)", "likes"),
    rule(r"\bich kann (?P<o>.+?) (?:überhaupt |gar |echt )?nicht (?:ausstehen|leiden)\b",
         "dislikes"),
    rule(rf"^{THING} hält mich (?:bei verstand|gesund|glücklich|am leben|bei laune)\b", "likes"),
    rule(rf"^{THING} geht bei mir (?:gar |überhaupt )?nicht\b", "intolerant_to"),
    rule(r"\bich bin kein(?:e)? (?:großer |großes |riesiger |\w+ )?fan von (?P<o>.+)",
         "dislikes", kind=LIST),
    rule(rf"^{THING} interessiert mich (?:überhaupt |gar )?nicht mehr\b", "likes", negated=True),
    rule(rf"^(?P<o>{W}(?: {W})?) (?:ist|sind) mir lieber\b", "prefers"),
    rule(r"\bich (?P<verb>[a-zäöüß]+e) lieber (?P<rest>nicht .+?)(?: als\b.*)?$", "prefers",
         group="verb",
         shape=lambda m, v: f"{m.group('rest').rstrip(' .!?')} {infinitive(m.group('verb'))}",
         reject_pronouns=False),
)
