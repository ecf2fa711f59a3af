"""Relative dates in EN/DE statements, resolved against when they were said (no clock).

"tomorrow at 8", "next Friday", "am 3. Juli", "Ende des Monats", "in zwei Wochen" point ahead
(a commitment's due date); "since March", "seit 2019", "for 12 years", "seit drei Jahren"
point back (when a fact began). Each resolves to a `Dated`: a day, and how precisely the
text gave it (a year, a month or a day), so "since 2019" is not read as the 1st of January.
"""

from __future__ import annotations

import re
from calendar import monthrange
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from enum import StrEnum

from memlane.domain.facts.date_words import DAYS, MONTHS, NUMBERS, SEASONS, number


class Precision(StrEnum):
    YEAR = "year"
    MONTH = "month"
    DAY = "day"


@dataclass(frozen=True, slots=True)
class Dated:
    """A resolved date and the precision the words gave it."""

    day: date
    precision: Precision

    def iso(self) -> str:
        """"2019", "2025-03" or "2025-06-12", as precise as it was said."""
        if self.precision is Precision.YEAR:
            return f"{self.day.year:04d}"
        if self.precision is Precision.MONTH:
            return f"{self.day.year:04d}-{self.day.month:02d}"
        return self.day.isoformat()


_NUM = r"(?:\d{1,3}|" + "|".join(sorted(NUMBERS, key=len, reverse=True)) + r")"
def _unit(name: str) -> str:
    return (rf"(?P<{name}>years?|months?|weeks?|days?|decades?|jahre?n?|monate?n?|wochen?|"
            r"tage?n?|jahrzehnte?n?)")
_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_DAY = "|".join(sorted(DAYS, key=len, reverse=True))
_SEASON = "|".join(sorted(SEASONS, key=len, reverse=True))
def _year(name: str) -> str:
    return rf"(?P<{name}>(?:19|20)\d\d)"

# Each pattern names what it found; `_ahead` and `_back` turn a match into a date.
AHEAD = re.compile(
    rf"(?P<dayafter>the day after tomorrow|übermorgen)"
    rf"|(?P<tomorrow>tomorrow|morgen(?!s))"
    rf"|(?P<today>today|tonight|this (?:morning|afternoon|evening)|heute|heute abend)"
    rf"|(?P<inn>(?:in|within|innerhalb von|binnen) (?P<n>{_NUM}) {_unit('unit')})"
    rf"|(?P<endof>(?:the )?end of (?:the )?(?P<endwhat>month|week|year|{_MONTH})"
    rf"|ende (?:des monats|der woche|des jahres|(?P<endmonth>{_MONTH})|nächster woche))"
    rf"|(?P<ordinal>(?P<d>\d{{1,2}})(?:st|nd|rd|th|\.)?(?: of)? (?P<m1>{_MONTH})"
    rf"(?: {_year('y1')})?)"
    rf"|(?P<monthday>(?P<m2>{_MONTH}) (?P<d2>\d{{1,2}})(?:st|nd|rd|th)?(?:,? {_year('y2')})?)"
    rf"|(?P<next>(?:next|nächste[nrms]?|kommende[nrms]?) (?P<nextwhat>week|weekend|month|year|"
    rf"woche|wochenende|monat|jahr|{_DAY})(?![\wäöüß]))"
    rf"|(?P<weekend>this weekend|dieses wochenende|am wochenende)"
    # A weekday said once ("on Friday", "Freitag"), not every week ("Fridays", "freitags").
    rf"|(?P<weekday>(?P<wd>{_DAY})(?:morgen|mittag|nachmittag|abend|vormittag)?)(?![\wäöüß])"
    rf"|(?P<thenth>(?:the|am|dem|zum) (?P<d3>\d{{1,2}})(?:st|nd|rd|th|\.)(?!(?: of)? (?:{_MONTH})))"
    rf"|(?P<inmonth>(?:in|im) (?P<m3>{_MONTH}))"
    rf"|(?P<this>this (?:week|month)|diese (?:woche)|diesen monat)",
    re.IGNORECASE,
)
BACK = re.compile(
    rf"(?P<duration>(?:for|seit|since) (?:the (?:past|last) )?(?:over |about |almost |fast |über "
    rf"|etwa |gut |knapp )?"
    rf"(?P<n>{_NUM}) {_unit('unit')})"
    rf"|(?P<trailing>(?<!\w)(?P<n2>{_NUM}) {_unit('u2')} now)"
    rf"|(?P<ago>(?P<n3>{_NUM}) {_unit('u3')} ago|vor (?P<n4>{_NUM}) {_unit('u4')})"
    rf"|(?P<sinceyear>(?:since|seit|in|im jahr) {_year('year')})"
    rf"|(?P<sincemonth>(?:since|seit)(?: (?:the )?(?:first|1st) of)? (?P<m>{_MONTH}))"
    rf"|(?P<last>(?:since |seit )?(?:last|letzte[nrms]?|vorige[nrms]?|vorletzte[nrms]?|"
    rf"vergangene[nrms]?) (?P<lastwhat>year|jahr|month|monat|{_SEASON}))",
    re.IGNORECASE,
)


def _add_months(day: date, months: int) -> date:
    month = day.month - 1 + months
    year = day.year + month // 12
    return date(year, month % 12 + 1, min(day.day, monthrange(year, month % 12 + 1)[1]))


def _span(count: int, unit: str, today: date, sign: int) -> Dated:
    unit = unit.casefold()
    if unit.startswith(("day", "tag")):
        return Dated(today + timedelta(days=sign * count), Precision.DAY)
    if unit.startswith(("week", "woche")):
        return Dated(today + timedelta(weeks=sign * count), Precision.DAY)
    if unit.startswith(("month", "monat")):
        return Dated(_add_months(today, sign * count), Precision.MONTH)
    years = count * (10 if unit.startswith(("decade", "jahrzehnt")) else 1)
    return Dated(today.replace(year=today.year + sign * years, day=min(today.day, 28)),
                 Precision.YEAR)


def _next_weekday(today: date, weekday: int, *, next_week: bool) -> date:
    if next_week:  # "next Friday": the Friday of the coming calendar week
        monday = today + timedelta(days=7 - today.weekday())
        return monday + timedelta(days=weekday)
    return today + timedelta(days=(weekday - today.weekday() - 1) % 7 + 1)


def _month_day(today: date, month: int, day: int, year: str | None) -> Dated | None:
    target_year = int(year) if year else today.year
    if not 1 <= day <= monthrange(target_year, month)[1]:
        return None
    found = date(target_year, month, day)
    if year is None and found < today:  # "March 1" said in June: next March
        found = found.replace(year=today.year + 1)
    return Dated(found, Precision.DAY)


def _end_of(today: date, what: str) -> Dated:
    what = what.casefold()
    if what in MONTHS:
        month = MONTHS[what]
        year = today.year + (month < today.month)
        return Dated(date(year, month, monthrange(year, month)[1]), Precision.DAY)
    if what in ("week", "der woche"):
        return Dated(today + timedelta(days=6 - today.weekday()), Precision.DAY)
    if what == "nächster woche":
        return Dated(today + timedelta(days=13 - today.weekday()), Precision.DAY)
    if what in ("year", "des jahres"):
        return Dated(date(today.year, 12, 31), Precision.DAY)
    return Dated(date(today.year, today.month, monthrange(today.year, today.month)[1]),
                 Precision.DAY)


def _ahead(match: re.Match[str], today: date) -> Dated | None:
    g = match.groupdict()
    if g["dayafter"]:
        return Dated(today + timedelta(days=2), Precision.DAY)
    if g["tomorrow"]:
        return Dated(today + timedelta(days=1), Precision.DAY)
    if g["today"]:
        return Dated(today, Precision.DAY)
    if g["inn"]:
        return _span(number(g["n"]), g["unit"], today, 1)
    if g["endof"]:
        return _end_of(today, g["endwhat"] or g["endmonth"] or match.group(0).split(" ", 1)[1])
    if g["ordinal"]:
        return _month_day(today, MONTHS[g["m1"].casefold()], int(g["d"]), g["y1"])
    if g["monthday"]:
        return _month_day(today, MONTHS[g["m2"].casefold()], int(g["d2"]), g["y2"])
    if g["next"]:
        what = g["nextwhat"].casefold()
        if what in DAYS:
            return Dated(_next_weekday(today, DAYS[what], next_week=True), Precision.DAY)
        if what in ("week", "woche"):
            return Dated(today + timedelta(days=7 - today.weekday()), Precision.DAY)
        if what in ("weekend", "wochenende"):
            return Dated(today + timedelta(days=12 - today.weekday()), Precision.DAY)
        if what in ("month", "monat"):
            return Dated(_add_months(today.replace(day=1), 1), Precision.MONTH)
        return Dated(date(today.year + 1, 1, 1), Precision.YEAR)
    if g["weekend"]:
        return Dated(today + timedelta(days=(5 - today.weekday()) % 7), Precision.DAY)
    if g["weekday"]:
        return Dated(_next_weekday(today, DAYS[g["wd"].casefold()], next_week=False),
                     Precision.DAY)
    if g["thenth"]:
        day = int(g["d3"])
        month = today if day >= today.day else _add_months(today.replace(day=1), 1)
        return _month_day(today, month.month, day, str(month.year))
    if g["inmonth"]:
        named = MONTHS[g["m3"].casefold()]
        return Dated(date(today.year + (named < today.month), named, 1), Precision.MONTH)
    return Dated(today, Precision.DAY)  # "this week": as good as today for a due date


def _back(match: re.Match[str], today: date) -> Dated | None:
    g = match.groupdict()
    count = g["n"] or g["n2"] or g["n3"] or g["n4"]
    if count is not None:
        unit = g["unit"] or g["u2"] or g["u3"] or g["u4"]
        return _span(number(count), unit, today, -1)
    if g["sinceyear"]:
        return Dated(date(int(g["year"]), 1, 1), Precision.YEAR)
    if g["sincemonth"]:
        month = MONTHS[g["m"].casefold()]
        return Dated(date(today.year - (month > today.month), month, 1), Precision.MONTH)
    what = g["lastwhat"].casefold()
    back = 2 if match.group(0).casefold().split()[-2].startswith("vorletzt") else 1
    if what in ("month", "monat"):
        return Dated(_add_months(today.replace(day=1), -1), Precision.MONTH)
    return Dated(date(today.year - back, 1, 1), Precision.YEAR)


def due_date(expression: str, said_at: datetime) -> Dated | None:
    """The day a commitment is due by, from its words and when they were said (None: the
    words name no day)."""
    found = AHEAD.search(expression)
    return _ahead(found, said_at.date()) if found else None


def start_date(expression: str, said_at: datetime) -> Dated | None:
    """The day a fact began ("since March", "for 12 years", "seit 2019"), or None."""
    found = BACK.search(expression)
    return _back(found, said_at.date()) if found else None


def mentions_date(text: str) -> bool:
    """Whether `text` names a day ahead ("tomorrow", "am 3. Juli", "next week")."""
    return AHEAD.search(text) is not None

