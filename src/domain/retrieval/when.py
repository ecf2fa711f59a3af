"""When a question points: "four weeks ago", "last Saturday", "letzte Woche" as a window of time."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "ein": 1, "einem": 1, "einer": 1, "eins": 1, "zwei": 2, "drei": 3, "vier": 4,
    "fünf": 5, "sechs": 6, "sieben": 7, "acht": 8, "neun": 9, "zehn": 10, "elf": 11,
    "zwölf": 12, "a couple of": 2, "couple of": 2, "a few": 3, "few": 3, "paar": 2,
}
_UNIT_DAYS = {"day": 1.0, "week": 7.0, "month": 30.4, "year": 365.25}
_UNITS = {
    "day": "day", "days": "day", "tag": "day", "tagen": "day", "tage": "day",
    "week": "week", "weeks": "week", "woche": "week", "wochen": "week",
    "month": "month", "months": "month", "monat": "month", "monaten": "month", "monate": "month",
    "year": "year", "years": "year", "jahr": "year", "jahren": "year", "jahre": "year",
}
_WEEKDAYS = {
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5,
    "sunday": 6, "montag": 0, "dienstag": 1, "mittwoch": 2, "donnerstag": 3, "freitag": 4,
    "samstag": 5, "sonnabend": 5, "sonntag": 6,
}
_COUNT = r"(\d{1,3}|" + "|".join(sorted(map(re.escape, _NUMBERS), key=len, reverse=True)) + ")"
_UNIT = r"(" + "|".join(sorted(_UNITS, key=len, reverse=True)) + ")"
_DAY = r"(" + "|".join(_WEEKDAYS) + ")"
# "four weeks ago" / "vor vier Wochen"; "how many weeks ago" asks for the span, it anchors nothing.
_AGO = re.compile(rf"(?<!how many )\b{_COUNT} {_UNIT} ago\b|\bvor {_COUNT} {_UNIT}\b")
_PAST = re.compile(
    rf"\b(?:in |during |over |within )?(?:the )?(?:past|last) {_COUNT} {_UNIT}\b"
    rf"|\b(?:in den )?(?:letzten|vergangenen) {_COUNT} {_UNIT}\b"
)
_LAST_DAY = re.compile(rf"\b(?:last|letzten|letzte|vergangenen|am letzten) {_DAY}\b")
_NAMED = re.compile(
    r"\b(the day before yesterday|vorgestern|yesterday|gestern|last weekend|letztes wochenende"
    r"|vergangenes wochenende|last week|letzte woche|vergangene woche|last month"
    r"|letzten monat|vergangenen monat|this week|diese woche|this month|diesen monat"
    r"|this year|dieses jahr)\b"
)


@dataclass(frozen=True, slots=True)
class Window:
    """The stretch of time a question points at, both ends included."""

    start: datetime
    end: datetime

    def holds(self, moment: datetime) -> bool:
        return self.start <= moment <= self.end


def pointed_window(question: str, asked_at: datetime) -> Window | None:
    """The window of time the question's words point at, read against `asked_at` (EN, DE);
    None when it names no time relative to when it is asked.

    "N units ago" is the moment N units back, widened by half a unit either way (a day at
    least): people round. "the past N units" runs from N units back to the asking. A named
    day ("yesterday", "last Saturday") is that calendar day, a day either way (a session is
    often written down the morning after); a named week or month is that calendar stretch.
    """
    try:
        return _window(" ".join(question.casefold().split()), asked_at)
    except OverflowError:  # a time before year 1 or after 9999: it points at nothing held
        return None


def _window(text: str, asked_at: datetime) -> Window | None:
    if found := _AGO.search(text):
        count, days = _amount(found)
        slack = timedelta(days=max(1.0, days / 2))
        centre = asked_at - timedelta(days=count * days)
        return Window(centre - slack, centre + slack)
    if found := _PAST.search(text):
        count, days = _amount(found)
        return Window(asked_at - timedelta(days=count * days), asked_at)
    if found := _LAST_DAY.search(text):
        back = (asked_at.weekday() - _WEEKDAYS[found.group(1)] - 1) % 7 + 1
        return _days(asked_at - timedelta(days=back), 1, slack=1)
    if found := _NAMED.search(text):
        return _named(found.group(1), asked_at)
    return None


def _amount(found: re.Match[str]) -> tuple[int, float]:
    """How many units, and a unit's days, from either language's groups of a match."""
    word = found.group(1) or found.group(3)
    count = int(word) if word.isdigit() else _NUMBERS[word]
    return count, _UNIT_DAYS[_UNITS[found.group(2) or found.group(4)]]


def _days(first: datetime, count: int, slack: int = 0) -> Window:
    start = first.replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=slack)
    return Window(start, start + timedelta(days=count + 2 * slack) - timedelta(microseconds=1))


def _named(words: str, asked_at: datetime) -> Window:
    monday = asked_at - timedelta(days=asked_at.weekday())
    month_start = asked_at.replace(day=1)
    if words in ("the day before yesterday", "vorgestern"):
        return _days(asked_at - timedelta(days=2), 1, slack=1)
    if words in ("yesterday", "gestern"):
        return _days(asked_at - timedelta(days=1), 1, slack=1)
    if "wochenende" in words or words == "last weekend":
        return _days(monday - timedelta(days=2), 2, slack=1)
    if words in ("last week", "letzte woche", "vergangene woche"):
        return _days(monday - timedelta(days=7), 7, slack=1)
    if words in ("last month", "letzten monat", "vergangenen monat"):
        previous = (month_start - timedelta(days=1)).replace(day=1)
        return _days(previous, (month_start - previous).days, slack=1)
    if words in ("this week", "diese woche"):
        return Window(_days(monday, 1).start, asked_at)
    if words in ("this month", "diesen monat"):
        return Window(_days(month_start, 1).start, asked_at)
    return Window(_days(asked_at.replace(month=1, day=1), 1).start, asked_at)
