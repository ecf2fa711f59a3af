"""Time in EN/DE statements: events' past dates, a fact's start and due date, its time span."""

from __future__ import annotations

import re
from datetime import datetime

from memlane.domain.facts.dates import AHEAD, BACK, Dated, due_date, start_date
from memlane.domain.facts.model import ExtractedFact, FactType, TimeSpan

_MONTHS_EN = ("january|february|march|april|may|june|july|august|september|october|november|"
              "december")
_MONTHS_DE = (
    "januar|jänner|februar|märz|april|mai|juni|juli|august|september|oktober|november|dezember"
)
_DAYS_EN = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_DAYS_DE = "montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag"
_SEASONS_EN = "spring|summer|autumn|fall|winter"
_NUMBER_WORDS = (r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
                 r"thirteen|fourteen|fifteen|twenty|thirty|forty|fifty|"
                 r"a few|a couple of|several|\d+)")
_NUMBER_WORDS_DE = (r"(?:einem|einer|ein|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|"
                    r"zwölf|fünfzehn|zwanzig|dreißig|vierzig|fünfzig|ein paar|einigen|mehreren|"
                    r"\d+)")
_YEAR = r"(?:19|20)\d\d"
_ORDINAL = r"\d{1,2}(?:st|nd|rd|th)?"

# A point or stretch in the past (or a date) that dates an event. A bare month needs "in",
# so the modal "may" is no date; "since 2018" says something still holds and is left out.
PAST_DATE_EN = re.compile(
    rf"\b(?:(?:back )?(?:in|on|during) )?(?:(?:early|late|mid)[- ])?(?:"
    rf"{_ORDINAL}(?: of)? (?:{_MONTHS_EN})(?:,? {_YEAR})?"
    rf"|(?:{_MONTHS_EN}) {_ORDINAL}(?:,? {_YEAR})?"
    rf"|(?:{_MONTHS_EN}) {_YEAR}"
    rf"|(?<=in )(?:{_MONTHS_EN}|{_YEAR}|the (?:{_SEASONS_EN})(?: of {_YEAR})?)"
    rf"|last (?:year|month|week|weekend|night|christmas|easter|{_SEASONS_EN}|{_DAYS_EN})"
    rf"|(?<=on )(?:{_DAYS_EN})(?!s)"
    rf"|the day before yesterday|yesterday|earlier this (?:year|month|week)"
    rf"|{_NUMBER_WORDS} (?:years?|months?|weeks?|days?) ago"
    rf")\b",
    re.IGNORECASE,
)
PAST_DATE_DE = re.compile(
    rf"\b(?:(?:am|im|anfang|mitte|ende) )?(?:"
    rf"\d{{1,2}}\. (?:{_MONTHS_DE})(?: {_YEAR})?"
    rf"|(?:{_MONTHS_DE})(?: {_YEAR})?"
    rf"|(?:im jahre? )?{_YEAR}"
    rf"|(?<=am )(?:{_DAYS_DE})(?!s)"
    rf"|(?:letzte[nsrm]?|vorige[nsrm]?|vergangene[nsrm]?|vorletzte[nsrm]?) (?:jahr|monat|"
    rf"woche|wochenende|nacht|sommer|winter|herbst|frühling|frühjahr|{_DAYS_DE})"
    rf"|vorgestern|gestern|vor {_NUMBER_WORDS_DE} (?:jahren|jahr|monaten|monat|wochen|woche|"
    rf"tagen|tag)"
    rf")\b",
    re.IGNORECASE,
)
_PREPOSITION = re.compile(r"^(?:back in|in|on|during|am|im)\s+", re.IGNORECASE)

_SHORT = re.compile(
    r"\b(?:today|tonight|tomorrow|yesterday|this (?:morning|afternoon|evening|week|weekend)|"
    r"last (?:night|week|weekend|" + _DAYS_EN + r")|days? ago|heute|morgen|übermorgen|gestern|"
    r"vorgestern|nacht|diese woche|dieses wochenende|am wochenende|tagen|tag|woche|wochenende|"
    + _DAYS_DE + r")\b",
    re.IGNORECASE,
)
_MEDIUM = re.compile(
    r"\b(?:months?|weeks? ago|wochen|monat|monaten|this year|dieses jahr|" + _SEASONS_EN
    + r"|sommer|winter|herbst|frühling|frühjahr|" + _MONTHS_EN + "|" + _MONTHS_DE + r")\b",
    re.IGNORECASE,
)
_NOW_RELATIONS = frozenset({"lives_in", "works_at", "works_as", "works_in", "age", "partner",
                            "diet"})


# "since 2018" says something still holds; "postponed to May 2025" names a target. Neither
# dates when something happened.
_NOT_WHEN = re.compile(r"\b(?:since|to|until|till|for|seit|ab|auf|bis|zum|für)\s+$",
                       re.IGNORECASE)


def past_date(text: str, *, lang: str) -> re.Match[str] | None:
    """The first expression in `text` that dates something in the past, if any."""
    for found in (PAST_DATE_DE if lang == "de" else PAST_DATE_EN).finditer(text):
        if not _NOT_WHEN.search(text[:found.start()]):
            return found
    return None


def strip_preposition(when: str) -> str:
    """'in 2019' -> '2019', 'im März' -> 'März': the date itself."""
    return _PREPOSITION.sub("", when.strip())


def span_of_date(when: str) -> TimeSpan:
    """How far back a past date lies, coarsely: days, months, or years."""
    if _SHORT.search(when):
        return TimeSpan.SHORT_TERM
    if _MEDIUM.search(when) and not re.search(_YEAR, when):
        return TimeSpan.MEDIUM_TERM
    return TimeSpan.LONG_TERM


def time_span(relation: str, fact_type: FactType, obj: str, when: str | None) -> TimeSpan:
    """The coarse window of a fact: events by their date, commitments by their deadline."""
    if fact_type is FactType.EVENT:
        return span_of_date(when) if when else TimeSpan.MEDIUM_TERM
    if fact_type is FactType.COMMITMENT:
        return TimeSpan.SHORT_TERM if _SHORT.search(obj) else TimeSpan.FUTURE
    if fact_type is FactType.PREFERENCE or relation in _NOW_RELATIONS:
        return TimeSpan.CURRENT
    return TimeSpan.LONG_TERM


# A state's start is dated by "since"/"seit" in any tense, and by "for N years" only in the
# perfect ("I've lived here for 12 years"; "I can't fly for six weeks" looks ahead) or as
# ", 12 years now".
_PERFECT = re.compile(
    r"\b(?:have|'ve|has|had) (?:\w+ )?(?:been|lived|worked|known|had|loved|dated|studied)\b"
    r"|\b(?:I|we)(?:'ve| have) \w+ed\b",
    re.IGNORECASE,
)
# Words that put a statement in a past the present does not follow from: childhood, school,
# "years ago" without a count, "used to", "früher". (A counted past, "five years ago", "in
# 2015", dates a statement instead: the ledger orders it against what is known.)
_DISTANT_PAST = re.compile(
    r"\b(?:as a (?:kid|child|teenager|teen|student|boy|girl)|growing up|when I was (?:a |an )?"
    r"(?:kid|child|little|young|small|teenager|teen|student|younger|\d+)|in my (?:teens|"
    r"twenties|thirties|forties|youth|childhood)|back (?:then|in the day|in (?:school|college|"
    r"uni))|in (?:college|high school)|(?<!\d )(?<!\w\w )years ago|long ago|a long time ago|"
    r"used to|once upon|als (?:kind|jugendliche[rs]?|teenager|student(?:in)?|schüler(?:in)?)|"
    r"in meiner (?:kindheit|jugend|schulzeit|studienzeit)|als ich (?:klein|jung|kind|noch)|"
    r"im studium|während des studiums|zu schulzeiten|vor (?:vielen |langer )?"
    r"(?:jahren|zeit)\b|früher|damals|mit mitte (?:zwanzig|dreißig|vierzig)|ursprünglich war)",
    re.IGNORECASE,
)


def due_expression(text: str) -> str | None:
    """The words in `text` that name a day ahead, as written ("tomorrow at 8"), or None."""
    found = AHEAD.search(text)
    return found.group(0) if found else None


def start_expression(text: str) -> str | None:
    """The words in `text` that say since when something holds ("since March", "for 12
    years" in the perfect, "seit drei Jahren"), or None."""
    for found in BACK.finditer(text):
        g = found.groupdict()
        if g["ago"]:
            continue
        if g["duration"] and found.group(0).casefold().startswith("for") and not (
                _PERFECT.search(text)):
            continue
        return found.group(0)
    return None


def anchored_in_distant_past(text: str) -> bool:
    """Whether `text` speaks of a past that does not reach the present (childhood, school,
    "years ago", "used to", "früher", "damals")."""
    return _DISTANT_PAST.search(text) is not None


def fact_dates(fact: ExtractedFact, said_at: datetime) -> tuple[Dated | None, Dated | None]:
    """(when the fact began, when it is due), resolved against the time it was said: a
    state's start from `since` (or from a past date that anchors it, "I moved to Oslo last
    month"), a commitment's due day from `when`."""
    if fact.fact_type is FactType.COMMITMENT:
        return None, due_date(fact.when, said_at) if fact.when else None
    if fact.fact_type is FactType.EVENT:
        return None, None
    words = fact.since or fact.when
    return (start_date(words, said_at) if words else None), None
