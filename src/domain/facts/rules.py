"""How one fact pattern reads a sentence: the rule value, and the object cut out and trimmed."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from memlane.domain.facts.patterns.lexicon import FILLER_WORDS
from memlane.domain.facts.sentences import is_reported
from memlane.domain.facts.time import PAST_DATE_DE, PAST_DATE_EN

# States a "no longer" statement ends (a habit given up is an `avoids` fact of its own).
ENDED_STATES = frozenset({"lives_in", "works_at", "works_as", "diet", "partner", "afraid_of",
                          "allergic_to", "intolerant_to", "likes", "condition"})


class ObjectKind(StrEnum):
    """How the object group is turned into one or more objects."""

    PHRASE = "phrase"  # cut at the clause's end, trimmed of fillers
    LIST = "list"  # a phrase that may list several ("peanuts and latex")
    NAME = "name"  # the capitalised words that start it
    NAMES = "names"  # several names ("Mia and Leo")


@dataclass(frozen=True, slots=True)
class Rule:
    """A pattern with an object group `o` (or `group`) and what a match of it means.

    `relation` is a name, or a mapping from the lower-cased `rel` group ("sister") to one.
    `stops` end the object early (" with " after a city); `keep_condition` keeps a "while",
    "if" or "wenn" clause in it (a limit's condition); `unless` vetoes the sentence;
    `accept` vetoes a match; `shape(match, object)` rewrites a cleaned object (None drops it);
    `subject(match)` names whom the fact is about when not the user ("Ben" in "my son Ben
    is 7"; None or "" drops the match).
    """

    pattern: re.Pattern[str]
    relation: str | Mapping[str, str]
    kind: ObjectKind = ObjectKind.PHRASE
    confidence: float = 0.85
    negated: bool = False
    group: str = "o"
    stops: tuple[str, ...] = ()
    keep_time: bool = False
    keep_condition: bool = False
    reject_pronouns: bool = True
    unless: re.Pattern[str] | None = None
    accept: Callable[[re.Match[str]], bool] | None = None
    shape: Callable[[re.Match[str], str], str | None] | None = None
    subject: Callable[[re.Match[str]], str | None] | None = None

    def relation_of(self, match: re.Match[str]) -> str | None:
        if isinstance(self.relation, str):
            return self.relation
        return self.relation.get((match.group("rel") or "").casefold())


def rule(pattern: str, relation: str | Mapping[str, str], **options: object) -> Rule:
    """A rule from a case-insensitive pattern."""
    return Rule(re.compile(pattern, re.IGNORECASE), relation, **options)  # type: ignore[arg-type]


# A colon ends an object, except inside a time ("at 7:30").
_HARD_STOP = re.compile(
    "\\s*(?:[;()\\[\\]\"\u201c\u201d]|:(?!\\d)|\\s[-\u2013\u2014]\\s|\\.\\.\\.)"
)
_LIST_END = re.compile(r"\b(?:and|und|or|oder)\b", re.IGNORECASE)
_CONDITIONS = r"while|if|unless|when|as long as|wenn|falls|während"
# A start point ends an object too: "Milch seit der Schwangerschaft" is about milk.
_OTHER_CLAUSES = (r"because|since|so that|so|but|although|though|which|who|whereas|due to|weil|"
                  r"da|aber|obwohl|denn|sondern|damit|seit (?:der|dem|den|meiner|meinem|unserer|"
                  r"unserem)")
# A new clause with its own subject ends a list: "fantasy films, they're a great escape".
_NEW_SUBJECT = r"|,\s+(?:they|it|he|she|we|you|i|it's|they're|that's|es|sie|er|ich|wir)\b"
_CLAUSE_STOP = re.compile(
    rf"\s+(?:{_OTHER_CLAUSES}|{_CONDITIONS})\b{_NEW_SUBJECT}", re.IGNORECASE
)
# A limit keeps a condition said without a subject of its own ("not supposed to drink while
# on these meds" is no ban on drinking); a condition clause with its subject ("while I'm
# pregnant", "wenn ich fahre") still ends the object, like any other clause.
_CLAUSE_STOP_KEEPING_CONDITIONS = re.compile(
    rf"\s+(?:{_OTHER_CLAUSES})\b|\s+(?:{_CONDITIONS})\s+(?:I|I'm|I've|you|he|she|we|they|it|"
    rf"ich|du|er|sie|wir|es|man)\b{_NEW_SUBJECT}", re.IGNORECASE
)
# "and"/"or" inside a prepositional phrase joins its nouns, not the list: "road trips with
# friends and family" is one thing.
_PREPOSITION_END = re.compile(
    r"\b(?:with|of|for|to|from|about|in|on|at|between|mit|von|für|zu|aus|über|zwischen)"
    r"(?:\s+\S+){1,2}$", re.IGNORECASE,
)
_TRAILING_FILLER = re.compile(
    r"(?:[\s,]+(?:now|anymore|any more|these days|nowadays|currently|at the moment|right now|"
    r"too|as well|again|actually|though|really|for now|already|still|then|honestly|for me|"
    r"please|if possible|in particular|especially|a lot|very much|so much|lol|haha|originally|"
    r"lately|recently|these days|at the moment|at all|überhaupt|ever|after all|"
    r"jetzt|mittlerweile|inzwischen|nun|auch|noch|gerade|derzeit|zurzeit|aktuell|momentan|"
    r"wieder|eigentlich|schon|mehr|übrigens|ja|halt|doch|seit kurzem|bitte|sehr|total|"
    r"wirklich|über alles|überhaupt|so|gerne?|besonders|ursprünglich|von beruf|sogar|even|"
    r"all my life|my (?:whole|entire) life|mein ganzes leben))+"
    r"[\s.!?]*$",
    re.IGNORECASE,
)
_LEADING_FILLER = re.compile(
    r"^(?:(?:just|really|also|still|now|actually|currently|finally|auch|jetzt|noch|einfach|"
    r"wirklich|total|sehr|gerne?|ganz|mittlerweile|inzwischen|nur|ursprünglich)\s+)+",
    re.IGNORECASE,
)
_DURATION = re.compile(
    r"\s+(?:for|since|seit|für)\s+(?:\w+\s+){0,2}(?:years?|months?|weeks?|days?|jahren|"
    r"monaten|wochen|tagen)$",
    re.IGNORECASE,
)
_PRONOUN_START = re.compile(
    r"^(?:it|that|this|these|those|you|them|him|her|how|what|when|where|why|the way|es|das|"
    r"dies|diese|dieses|dich|euch|ihn|ihm|mich|sie)\b",
    re.IGNORECASE,
)
_LIST_SPLIT = re.compile(r"\s*,\s*(?:and\s+|und\s+|or\s+|oder\s+)?|\s+(?:and|und|&|or|oder)\s+",
                         re.IGNORECASE)
# "both latex and plasters", "beide, Katzen und Hunde": the list after it.
_BOTH = re.compile(r"^(?:both|beide)\b,?\s+(?=\S)", re.IGNORECASE)
# "my home village, Kilcoole", "meiner Geburtsstadt Gotha": the name the noun is given.
_APPOSED = re.compile(r"^(?:my|our|mein\w*|unser\w*) (?:[\w-]+ ){0,2}?[\wäöüß-]+,? "
                      r"(?P<name>(?-i:[A-ZÄÖÜ])[\w'-]+(?: (?-i:[A-ZÄÖÜ])[\w'-]+)?)$", re.IGNORECASE)
_APPOSED_COMMA = re.compile(r"^(?i:my|our|mein\w*|unser\w*) (?:[\w-]+ ){0,2}?[\wäöüß-]+, "
                            r"(?=[A-ZÄÖÜ])")
_PLACES = frozenset({"lives_in", "comes_from", "birthplace", "works_at"})
_NAME_TOKEN = re.compile(r"^[A-ZÄÖÜ][\w'-]*$")
_NOT_NAMES = frozenset({"I", "Ich", "The", "Der", "Die", "Das", "And", "Und"})


def _strip_trailing_time(value: str) -> str:
    for dates in (PAST_DATE_EN, PAST_DATE_DE):
        last = None
        for last in dates.finditer(value):  # noqa: B007 - only the last one can end the object
            pass
        if last is not None and last.end() >= len(value.rstrip(" .!?")) and last.start() > 0:
            value = value[:last.start()]
    return _DURATION.sub("", value.rstrip(" .!?"))


# Emoji and pictographs close a chat message, never an object: "test 😅".
_EMOJI = re.compile("[\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F\u200D]+")


def trim(value: str, *, keep_time: bool = False) -> str:
    """Fillers, a trailing date (unless kept) and punctuation off both ends."""
    previous = None
    value = _EMOJI.sub(" ", value)
    while previous != value:
        previous = value
        value = _TRAILING_FILLER.sub("", value.strip())
        value = _LEADING_FILLER.sub("", value)
        if not keep_time:
            value = _strip_trailing_time(value)
        value = value.strip().rstrip(".!?,").strip()
    return value


def cut(value: str, rule_: Rule, *, keep_commas: bool = False) -> str:
    """The object up to the end of its clause (a comma too, unless the object is a list)."""
    value = _HARD_STOP.split(value, maxsplit=1)[0]
    head, comma, rest = value.partition(",")
    # "peanuts, shellfish and latex" is a list; "jazz, especially Coltrane" is an aside.
    if comma and not (keep_commas and _LIST_END.search(rest)):
        value = head
    clauses = _CLAUSE_STOP_KEEPING_CONDITIONS if rule_.keep_condition else _CLAUSE_STOP
    value = clauses.split(value, maxsplit=1)[0]
    for stop in rule_.stops:
        value = re.split(rf"\s+{stop}\b", value, maxsplit=1, flags=re.IGNORECASE)[0]
    return value


def leading_name(value: str) -> str | None:
    """The capitalised words that open `value` (at most three), or None."""
    taken: list[str] = []
    for raw in value.split()[:3]:
        token = raw.rstrip(".,!?;:").removesuffix("'s")
        if not _NAME_TOKEN.match(token) or token.split("'")[0] in _NOT_NAMES:
            break
        taken.append(token)
        if token != raw:
            break
    return " ".join(taken) or None


def _list_items(value: str) -> list[str]:
    """The items of a list, an "and" inside a prepositional phrase kept together."""
    items: list[str] = []
    rest = value
    while (sep := _LIST_SPLIT.search(rest)) is not None:
        head = rest[:sep.start()]
        if _PREPOSITION_END.search(head) and "," not in sep.group(0):
            # Keep "with friends and family" whole: look for the next separator after it.
            nxt = _LIST_SPLIT.search(rest, sep.end())
            if nxt is None:
                break
            items.append(rest[:nxt.start()])
            rest = rest[nxt.end():]
            continue
        items.append(head)
        rest = rest[sep.end():]
    items.append(rest)
    return [item for item in items if item.strip()]


def objects(match: re.Match[str], rule_: Rule) -> list[str]:
    """The cleaned objects a match names (none when its words say it names nothing)."""
    raw = match.group(rule_.group)
    if raw is None or is_reported(match.string[:match.start()]):
        return []
    raw = _BOTH.sub("", raw)
    if rule_.relation_of(match) in _PLACES:
        raw = _APPOSED_COMMA.sub("", raw)
    # A state said to have ended is no current one: "mit Felix nicht mehr zusammen" names
    # Felix only for a negated rule (or a negated reading, readings.py).
    if (not rule_.negated and rule_.relation_of(match) in ENDED_STATES
            and ENDED.search(cut(raw, rule_))):
        return []
    if rule_.kind is ObjectKind.NAME:
        names = [leading_name(cut(raw, rule_))]
    elif rule_.kind is ObjectKind.NAMES:
        # Split the list before cutting: "Mia who's 7 and Leo who's 4" names both.
        listed = _LIST_SPLIT.split(_HARD_STOP.split(raw, maxsplit=1)[0])
        names = [leading_name(part) for part in listed]
    else:
        whole = cut(raw, rule_, keep_commas=rule_.kind is ObjectKind.LIST)
        parts = _list_items(whole) if rule_.kind is ObjectKind.LIST else [whole]
        trimmed = [trim(part, keep_time=rule_.keep_time) for part in parts]
        names = [apposed.group("name") if (apposed := _APPOSED.match(name)) else name
                 for name in trimmed]
    found = []
    for index, name in enumerate(names):
        # An acronym ("IT") is no pronoun.
        if not name or (rule_.reject_pronouns and _PRONOUN_START.match(name)
                        and not name.split()[0].isupper()):
            continue
        shaped = rule_.shape(match, name) if rule_.shape else name
        if shaped and not is_filler(shaped):
            found.append(shaped)
        elif index == 0 and rule_.kind is ObjectKind.LIST:
            return []  # a list whose first item names nothing ("the idea and the acting")
    return found


def is_filler(value: str) -> bool:
    """Whether an object is only function words or fillers ("to", "anymore", "it", "mehr",
    "das"): such an object names nothing, so no fact is made of it."""
    words = re.findall(r"[\w'-]+", value)
    # An acronym ("IT", "US") is a name, though its letters spell a function word.
    return not words or all(word.casefold() in FILLER_WORDS and not (word.isupper()
                                                                     and len(word) > 1)
                            for word in words)


# "nicht mehr als fünf Kilo" is a limit; "nicht mehr als Lehrer" an ending.
_NO_MORE_THAN = r" als (?-i:[a-zäöüß\d])"
# A statement that something stopped holding ("no longer", "anymore", "nicht mehr"; not
# "nicht mehr als", no more than).
ENDED = re.compile(rf"\b(?:no longer|any ?more|not anymore|nicht mehr(?!{_NO_MORE_THAN})|"
                   rf"kein\w* \w+(?: \w+)? mehr(?!{_NO_MORE_THAN})|"
                   r"nicht länger)\b", re.IGNORECASE)


def ended(match: re.Match[str]) -> bool:
    return bool(ENDED.search(match.string))


def alternation(words: frozenset[str]) -> str:
    """A regex alternation of `words`, longest first so "guinea pig" wins over "pig"."""
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
