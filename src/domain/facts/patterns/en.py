"""English fact patterns for who the user is (identity) and what they like (preference)."""

from __future__ import annotations

import re

from memlane.domain.facts.patterns.lexicon import (
    DETERMINERS_DEICTIC,
    JUDGEMENT_WORDS,
    KIN,
    NATIONALITIES_EN,
    OCCUPATIONS_EN,
    PETS_EN,
)
from memlane.domain.facts.rules import ObjectKind, Rule, alternation, ended, rule

NAME, NAMES, LIST = ObjectKind.NAME, ObjectKind.NAMES, ObjectKind.LIST
I_AM = r"\bI(?:'m| am)"
I_AM_STILL = r"\bI(?:'m| am|'ve been| have been|'ve always been| have always been)"
NOW = r"(?:(?:currently|now|still|also|actually|mainly|just|recently|finally|since) )?"
# How much or how long before a verb of liking: "I still love", "I also really enjoy".
_HOW_MUCH = (r"(?:(?:really|absolutely|just|truly|do|so|genuinely|still|also|always|actually|"
             r"honestly|totally|definitely|seriously) ){0,2}")
PETS = alternation(PETS_EN)
KIN_EN = {**KIN, "sisters": "sister", "brothers": "brother"}
_YEAR = re.compile(r"(?:19|20)\d\d")
_NOT_A_WORKPLACE = frozenset({
    "home", "night", "nights", "weekends", "the weekend", "the weekends", "myself", "the moment",
    "the evenings", "the mornings", "my desk", "a desk",
})
_NOT_AN_EMPLOYER = re.compile(
    r"(?:(?:a|the|my|our) (?:small |big |great |tiny |remote )?(?:team|group|squad|crew|shift)s?"
    r"|shifts|peanuts|free|tips|nothing|money|fun|food|a living)\b"
)
_NOT_A_HOME = re.compile(
    r"(?:fear|hope|denial|peace|harmony|luxury|poverty|sin|style|dread|terror|the (?:moment|past|"
    r"present|future|now)|a (?:bubble|dream|world of my own)|my (?:own )?(?:head|bubble|world)"
    # A count of places is none of them: "three countries", "several cities".
    r"|(?:two|three|four|five|six|seven|several|many|multiple|a few|lots of|different|\d+) "
    r"\w+s)\b"
)
_POINTED_AT = re.compile(
    r"^(?:(?:all )?the (?!odd\b|occasional\b|[A-Z])"
    r"|\w+ing (?:them|him|her|it|you|those|these)\b|how\b)"
)
_LIKE_NOT_A_THING = re.compile(r"^to (?:think|say|believe|imagine|know|admit|tell|be|see|hear|"
                               r"ask|bother|interrupt|break)\b", re.IGNORECASE)


def occupation(_: re.Match[str], job: str) -> str | None:
    """`job` when its head noun names a job and no word judges it ("good cook")."""
    job = re.sub(r"^(?:part|full)-time ", "", job, flags=re.IGNORECASE)
    words = job.casefold().split()
    if not words or (words[-1] not in OCCUPATIONS_EN and " ".join(words[-2:]) not in (
            OCCUPATIONS_EN)):
        return None
    return None if JUDGEMENT_WORDS.intersection(words) else job


def _job_group_is_occupation(match: re.Match[str]) -> bool:
    return occupation(match, match.group("job")) is not None


def _workplace(_: re.Match[str], place: str) -> str | None:
    """An employer, not when or how one works: "in a team of five", "for peanuts"."""
    folded = place.casefold()
    if folded in _NOT_A_WORKPLACE or _NOT_AN_EMPLOYER.match(folded):
        return None
    return named_employer(place)


def named_employer(place: str) -> str:
    """A firm named by its name needs no place: "Bosch in Feuerbach" -> "Bosch" (but "a firm
    in Leeds" is described by its place and keeps it)."""
    name, found, _ = place.partition(" in ")
    return name if found and name[:1].isupper() and name.split()[0].casefold() not in (
        "the", "der", "die", "das") else place


def _home(_: re.Match[str], place: str) -> str | None:
    """A place, not a state of mind ("I live in fear", "in the moment", "in hope")."""
    return None if _NOT_A_HOME.match(place.casefold()) else place


def _not_a_year(_: re.Match[str], place: str) -> str | None:
    return None if _YEAR.fullmatch(place) else place


def _a_date(_: re.Match[str], value: str) -> str | None:
    return value if re.search(r"\d|january|february|march|april|may|june|july|august|"
                              r"september|october|november|december", value, re.I) else None


def _a_thing(match: re.Match[str], thing: str) -> str | None:
    """Not "the blue one" or "up Snowdon": a favourite must name something."""
    if re.search(r"\bones?$", thing) or re.match(r"(?:up|down|in|on|at|to)\b", thing, re.I):
        return None
    return _liked(match, thing)


def _liked(_: re.Match[str], thing: str) -> str | None:
    """What is liked or disliked: not a remark ("to say it"), nor something pointed at
    ("this song", "your style", "the dark sky" in a photo, "seeing them play"); a definite
    "the" names a kind only before a name ("the Arctic Monkeys")."""
    if _LIKE_NOT_A_THING.match(thing) or thing.split()[0].casefold() in DETERMINERS_DEICTIC:
        return None
    # "What I can't stand is loud chewing": the cleft's own rule names the thing.
    if re.match(r"(?:is|are)\b", thing, re.IGNORECASE):
        return None
    if _POINTED_AT.match(thing):
        return None
    return re.sub(r"^to\s+", "", thing)


def _place(_: re.Match[str], place: str) -> str | None:
    """Where someone comes from names a place: "the future", "around here" do not."""
    return place if re.search(r"[A-ZÄÖÜ]", place) else None


IDENTITY: tuple[Rule, ...] = (
    rule(r"\bmy (?:first |full |real |nick)?name(?:'s| is) (?P<o>.+)", "name", kind=NAME,
         confidence=0.95),
    rule(r"\b(?:call me|(?:people|everyone|everybody|friends|they) call me) (?P<o>.+)", "name",
         kind=NAME),
    rule(r"^(?:hi|hello|hey)(?: there)?[,!]?\s+I(?:'m| am) (?P<o>.+)", "name", kind=NAME),
    rule(I_AM + r" called (?P<o>.+)", "name", kind=NAME),
    rule(r"\b(?:I|we) " + NOW + r"(?:live|reside|am living|'m living|are living|'re living) in "
         r"(?P<o>.+)", "lives_in", stops=("with", "for", "and", "since"), confidence=0.9,
         shape=_home),
    rule(r"\b(?:I|we)(?:'ve| have) (?:been living|lived) in (?P<o>.+)", "lives_in",
         stops=("with", "for", "and"), shape=_home),
    rule(r"\b(?:I|we)(?:'ve| have)? " + NOW
         + r"(?:moved|relocated)(?: again)?,? (?:back )?to (?P<o>.+)",
         "lives_in", stops=("with", "for", "and")),
    rule(I_AM + r" " + NOW + r"based in (?P<o>.+)", "lives_in", stops=("with", "and")),
    rule(r"\bI (?:no longer|don't|do not) live in (?P<o>.+)", "lives_in", negated=True,
         accept=ended),
    rule(I_AM + r" (?:originally )?from (?P<o>.+)", "comes_from", stops=("and",), shape=_place),
    rule(r"\bI (?:originally )?come from (?P<o>.+)", "comes_from", stops=("and",),
         shape=_place),
    rule(r"\bmy home ?town is (?P<o>.+)", "comes_from", stops=("and",)),
    rule(r"\bI was born (?:and raised )?in (?P<o>.+)", "birthplace", stops=("and",),
         shape=_not_a_year),
    rule(r"\bI was born in (?P<o>(?:19|20)\d\d)\b", "birth_year", keep_time=True),
    rule(r"\bI was born on (?P<o>.+)", "birthday", keep_time=True, shape=_a_date),
    rule(r"\bmy birthday(?:'s| is)(?: actually| really)?(?: on)? (?P<o>.+)", "birthday",
         keep_time=True, shape=_a_date, confidence=0.9),
    rule(I_AM + r" (?:now |already |just )?(?P<o>\d{1,3})(?= years? old\b|\s*(?:now|today|"
         r"this year)?\s*[.!]?\s*$| and\b|,|\s*now\b)", "age"),
    rule(r"\bI (?:just |recently )?turned (?P<o>\d{1,3})\b", "age"),
    rule(r"\b(?:I|we) " + NOW + r"work (?:(?:from home|remotely|full-time|part-time|nights|"
         r"weekends|evenings|mornings|days|shifts) )?(?:at|for) "
         r"(?P<o>.+)", "works_at", stops=("as", "and"), shape=_workplace, confidence=0.9),
    rule(I_AM_STILL + r" (?:employed|working) (?:at|by|for|with) (?P<o>.+)", "works_at",
         stops=("as", "and"), shape=_workplace),
    rule(r"\bI(?:'ve| have)? got (?:a |the )?(?:new )?job (?:at|with) (?P<o>.+)", "works_at",
         stops=("as", "and")),
    rule(r"\bI (?:just )?started (?:working|a new job|a job|work|my new job) (?:at|for|with) "
         r"(?P<o>.+)", "works_at", stops=("as", "and")),
    rule(r"\bI teach (?:\w+ ){0,3}?at (?P<o>.+)", "works_at", stops=("and",), confidence=0.8),
    rule(r"\bI work in (?P<o>(?:a|an|the) .+)", "works_at", stops=("as", "and"),
         shape=_workplace),
    rule(r"\bI work in (?P<o>(?!(?:a|an|the)\b).+)", "works_in", stops=("as", "and"),
         shape=_workplace, confidence=0.7),
    rule(I_AM + r" (?:now |currently )?(?:a|an|the new|the) (?P<job>[\w-]+(?: [\w-]+){0,2}?)"
         r"(?: now)?,? (?:at|for|with) (?P<o>.+)",
         "works_at", stops=("and",), accept=_job_group_is_occupation,
         shape=lambda _m, place: named_employer(place)),
    rule(r"\bI (?:no longer|don't|do not) work (?:at|for) (?P<o>.+)", "works_at", negated=True,
         accept=ended),
    rule(r"\bI (?:just )?(?:quit|left) my job (?:at|with) (?P<o>.+)", "works_at", negated=True,
         stops=("to", "and", "because")),
    rule(r"\bI (?:stopped|quit) working (?:at|for) (?P<o>.+)", "works_at", negated=True),
    rule(r"\bI " + NOW + r"work as (?:an? )?[\w-]+(?: [\w-]+){0,2}? (?:at|for|with) (?P<o>.+)",
         "works_at", stops=("and",)),
    rule(r"\bI " + NOW + r"work as (?:an? )?(?P<o>.+)", "works_as",
         stops=("at", "for", "in", "with", "and"), confidence=0.9),
    rule(I_AM + r" (?:a|an) (?P<o>[\w-]+(?: [\w-]+){0,2})", "works_as",
         stops=("at", "for", "in", "with", "and", "by", "based", "from", "who", "living",
                "working"), shape=occupation, confidence=0.8),
    rule(r"\bmy (?:job|profession|occupation) is (?:an? )?(?P<o>.+)", "works_as",
         stops=("at", "for", "in", "and"), shape=occupation),
    rule(I_AM + r" (?:no longer|not) (?:an? )?(?P<o>[\w-]+(?: [\w-]+)?)", "works_as",
         negated=True, accept=ended, shape=occupation),
    rule(r"\bmy (?:wife|husband|partner|girlfriend|boyfriend|fianc[ée]e?|spouse)(?:'s name is|"
         r" is called| is named| named| called| is|,)? (?P<o>[^\s,]+(?: [^\s,]+){0,2})", "partner",
         kind=NAME),
    rule(I_AM + r" (?:married to|engaged to|dating|in a relationship with) (?P<o>.+)",
         "partner", kind=NAME),
    rule(r"\b(?:my|our) (?:(?:older|younger|little|big|elder|eldest|baby|twin|step|half-) ?)?"
         r"(?P<rel>sister|brother|mom|mum|mother|dad|father|son|daughter)(?:'s name is| is called|"
         r" is named| named| called|,)? (?P<o>[^\s,]+(?: [^\s,]+){0,2})", KIN_EN, kind=NAME),
    rule(r"\b(?:I|we)(?: have|'ve got| have got| got|'ve) (?:a|an|one|two|three|four|five) "
         r"(?:(?:older|younger|little|big|twin|[\w-]+-year-old) )?"
         r"(?P<rel>sisters?|brothers?|sons?|daughters?|kids|children)(?: (?:called|named)|,|:)? "
         r"(?P<o>.+)", KIN_EN, kind=NAMES),
    rule(r"\b(?:I|we)(?: have|'ve got| have got| own| got|'ve) (?:a|an|one|two|three|four) "
         rf"(?:[\w-]+ ){{0,2}}(?:{PETS})(?: (?:named|called)|,)? (?P<o>.+)", "pet", kind=NAMES),
    rule(rf"\b(?:I|we)(?:'ve)? (?:got|adopted|rescued|bought|have|took in) (?:a|an) "
         rf"(?:[\w-]+ ){{0,2}}?(?:{PETS})\b[^.]*?,? (?:(?:his|her|its|their) name(?:'s| is)|"
         r"(?:she|he|it)(?:'s| is) (?:called|named)) (?P<o>.+)", "pet", kind=NAME),
    rule(rf"\b(?:my|our) (?P<o>{PETS})\b(?!'s name| is called| is named| named| called|,|\s+"
         r"(?-i:[A-Z]))", "pet", confidence=0.7),
    rule(r"\b(?:I|we)(?: have|'ve got| have got| own) (?:a|an|one|two|three|four) (?:[\w-]+ )?"
         rf"(?P<o>{PETS})\b(?!\s*(?:named|called|,))", "pet", confidence=0.8),
    rule(rf"\b(?:my|our) (?:[\w-]+ )?(?:{PETS})(?:'s name is| is called| is named| named|"
         r" called|,)? (?P<o>.+)", "pet", kind=NAME),
    rule(I_AM + rf" (?P<o>{alternation(NATIONALITIES_EN)})(?=\s*(?:[.!,]|$|and\b|but\b|by "
         r"birth))", "nationality", confidence=0.8),
    rule(I_AM + rf" an? (?P<o>{alternation(NATIONALITIES_EN)})(?= (?:living|based|settled) in\b)",
         "nationality", confidence=0.8),
)

PREFERENCE: tuple[Rule, ...] = (
    rule(r"\bI " + _HOW_MUCH + r"(?:love|like|enjoy|adore) (?P<o>.+)", "likes", kind=LIST,
         shape=_liked),
    rule(I_AM_STILL + r" (?:a )?(?:big |huge |great |massive )?fan of (?P<o>.+)", "likes",
         kind=LIST, shape=_liked),
    rule(I_AM + r" not (?:a |really a |much of a )?(?:big |huge |great )?fan of (?P<o>.+)",
         "dislikes", kind=LIST),
    rule(I_AM_STILL + r" (?:really |very |so |totally |quite )?into (?P<o>.+)", "likes", kind=LIST,
         shape=_liked),
    rule(r"\bmy (?:absolute |all-time )?(?:favou?rite|fave)(?: [\w-]+){0,4}? (?:is|are) (?P<o>.+)",
         "likes", shape=_a_thing, unless=re.compile(r"\bfavou?rite (?:part|bit|thing about)\b",
                                                    re.I)),
    rule(r"^(?P<o>[\w' -]{2,40}?) (?:is|are) my (?:absolute )?(?:favou?rite|fave)\b", "likes",
         shape=_liked),
    rule(r"^(?P<o>[\w' -]{2,40}?) (?:is|are|has always been|have always been|was always|were "
         r"always) (?:a|an|one of my|an all-time) (?:absolute |all-time )?(?:favou?rites?|faves?)"
         r"(?: of mine)?\b", "likes", shape=_liked),
    rule(r"^(?P<o>[\w' -]{2,40}?) (?:is|are) something I (?:really |truly )?(?:love|enjoy|like|"
         r"adore)\b", "likes"),
    rule(r"\bI " + _HOW_MUCH + r"(?:hate|dislike|detest|loathe|despise|can't stand|cannot "
         r"stand|can not stand) (?P<o>.+)", "dislikes", kind=LIST, shape=_liked),
    rule(r"\bI (?:really )?(?:don't|do not) (?:really |particularly )?(?:like|enjoy|love|care "
         r"for) (?P<o>.+)", "dislikes", kind=LIST, unless=re.compile(r"\bany ?more\b", re.I),
         shape=_liked),
    rule(r"\bI (?:don't|do not|no longer) (?:really )?(?:like|enjoy|love) (?P<o>.+)", "likes",
         negated=True, accept=ended),
    rule(r"\bI (?:much |really |generally |usually |definitely |always )?prefer (?P<o>.+?)"
         r"(?: (?:over|to|rather than|instead of|than) .*)?$", "prefers", shape=_liked),
    rule(r"\bI(?:'d| would) (?:much )?rather (?P<o>.+?) than\b", "prefers"),
)
