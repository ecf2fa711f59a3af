"""The time a question points at, read against when it is asked, in English and German."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, strategies as st

from memlane.domain.retrieval.when import pointed_window

# A Saturday morning.
ASKED = datetime(2023, 4, 1, 8, 30, tzinfo=UTC)


def _day(month: int, day: int) -> datetime:
    return datetime(2023, month, day, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(("question", "inside", "outside"), [
    ("What did I buy for the competition four weeks ago?", _day(3, 4), _day(3, 18)),
    ("Was habe ich vor vier Wochen gekauft?", _day(3, 4), _day(3, 18)),
    ("What did I cook 3 days ago?", _day(3, 29), _day(3, 20)),
    ("Was war vor einem Monat?", _day(3, 2), _day(2, 1)),
    ("Who did I go with to the concert last Saturday?", _day(3, 25), _day(3, 18)),
    ("Mit wem war ich letzten Samstag im Konzert?", _day(3, 25), _day(3, 18)),
    ("What did I eat yesterday?", _day(3, 31), _day(3, 27)),
    ("Was habe ich gestern gegessen?", _day(3, 31), _day(3, 27)),
    ("What did I do last week?", _day(3, 22), _day(3, 10)),
    ("Was habe ich letzte Woche gemacht?", _day(3, 22), _day(3, 10)),
    ("Where did I go last weekend?", _day(3, 25), _day(3, 18)),
    ("What did I read last month?", _day(3, 15), _day(2, 15)),
    ("How many films did I watch in the past two months?", _day(2, 10), _day(1, 10)),
    ("Wie oft war ich in den letzten drei Wochen schwimmen?", _day(3, 20), _day(2, 20)),
    ("How many weddings did I attend this year?", _day(2, 10), datetime(2022, 12, 20, tzinfo=UTC)),
])
def test_the_window_holds_the_time_pointed_at_and_not_far_from_it(
    question: str, inside: datetime, outside: datetime
) -> None:
    window = pointed_window(question, ASKED)
    assert window is not None
    assert window.holds(inside) and not window.holds(outside)


@pytest.mark.parametrize("question", [
    "How many days ago did I meet Emma?",  # asks for the span: it points at no time
    "Vor wie vielen Tagen habe ich Emma getroffen?",
    "Where do I live?",
    "What did I say about the last season of Dark?",
    "Was ist mein Beruf?",
])
def test_a_question_that_points_at_no_time_has_no_window(question: str) -> None:
    assert pointed_window(question, ASKED) is None


@given(
    st.sampled_from([
        "two weeks ago", "vor 3 Tagen", "last friday", "letzten montag", "yesterday",
        "vorgestern", "last week", "letzten monat", "the past 5 days", "this month",
        "diese woche", "last weekend", "a year ago",
    ]),
    st.datetimes(min_value=datetime(2001, 1, 1), max_value=datetime(2099, 12, 1),
                 timezones=st.just(UTC)),
)
def test_a_window_never_ends_before_it_starts_or_starts_after_the_asking(
    words: str, asked: datetime
) -> None:
    window = pointed_window(f"What happened {words}?", asked)
    assert window is not None
    assert window.start <= window.end
    assert window.start <= asked + timedelta(days=1)


@pytest.mark.parametrize("asked", [
    datetime(1, 1, 2, tzinfo=UTC), datetime(9999, 12, 31, 23, 0, tzinfo=UTC),
])
@pytest.mark.parametrize("question", [
    "What did I do 999 years ago?", "last weekend", "letzten Monat", "the day before yesterday",
])
def test_a_time_beyond_the_calendar_points_at_nothing(question: str, asked: datetime) -> None:
    window = pointed_window(question, asked)
    assert window is None or window.start <= window.end
