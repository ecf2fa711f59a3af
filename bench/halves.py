"""The fixed split of every labelled set into a tuning half and a test half (issue 23).

A row's half is decided by a hash of its id (its text when it has none), never by where it
sits in a file or who wrote it: adding rows never moves another row, and a held-out file
run through the same benches is split the same way. Rules are tuned on `tune` only; `test`
is reported beside it, and a gap of more than 5 points between the two says the rules fit
sentences rather than the language.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

TUNE, TEST = "tune", "test"
HALVES = (TUNE, TEST)
# A message time the benches resolve relative dates against: a Wednesday, so "on Friday"
# and "next Monday" fall in the same week as written in the labels.
MESSAGE_TIME_ISO = "2025-06-11T10:00:00+00:00"
Row = TypeVar("Row", bound=Mapping[str, Any])


def half_of(row: Mapping[str, Any]) -> str:
    """`tune` or `test`, by the first byte of the SHA-256 of the row's id (or text)."""
    key = str(row.get("id") or row.get("text") or row["new"])
    return TUNE if hashlib.sha256(key.encode("utf-8")).digest()[0] % 2 == 0 else TEST


def in_half(rows: Iterable[Row], half: str) -> list[Row]:
    """The rows of one half ("all": every row)."""
    return [row for row in rows if half == "all" or half_of(row) == half]


def by_group(
    rows: Iterable[Row], key: Callable[[Row], str]
) -> dict[str, list[Row]]:
    """Rows grouped by `key`, groups in name order."""
    groups: dict[str, list[Row]] = {}
    for row in rows:
        groups.setdefault(key(row), []).append(row)
    return dict(sorted(groups.items()))


def gap_points(tune: float | None, test: float | None) -> float | None:
    """|tune - test| in percentage points (None when either is missing)."""
    if tune is None or test is None:
        return None
    return round(abs(tune - test) * 100, 1)
