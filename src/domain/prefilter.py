"""Which patterns can match a text: the literal strings a pattern cannot match without.

A fact rule's regex runs over every clause of every sentence written; most rules need a word
("allergic", "ich") the clause does not hold. Each pattern is read once (its parse tree) for
sets of strings one of which every match contains; a text lacking all of a set cannot match,
so its regex is not run. Exact: a pattern with no such set always runs, and no match is lost
(tests/unit/domain/test_prefilter.py checks every labelled sentence and every code point the
comparison folds).
"""

from __future__ import annotations

import re
import re._constants as sre  # the parse tree's opcodes (the stdlib's own parser)
import re._parser as sre_parse
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

GRAM = 3  # needles are filed by their first GRAM characters
MAX_STRINGS = 64  # alternatives kept per set: beyond, a set tests more than it saves
# Characters a needle may hold: each matches under IGNORECASE only what folds to it (the
# unit test checks every code point). Others cut a needle into the runs between them.
SAFE = frozenset(
    "abcdefghijklmnopqrstuvwxyz0123456789 '-,.!?:;/&+äöüß"
)
# What IGNORECASE matches that str.lower() would not fold alike: "İ" lowers to two
# characters, U+0131 and U+017F (dotless i, long s) match "i" and "s" (re._casefix).
_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s"})


def fold(text: str) -> str:
    """The text as needles are compared with it: case and IGNORECASE's equivalents folded."""
    return text.translate(_FOLD).lower()


@dataclass(frozen=True, slots=True)
class _Shape:
    exact: frozenset[str] | None  # every string the part can match, when few
    needs: frozenset[str] | None  # one of these is in every match (None: nothing known)


_ANYTHING = _Shape(None, None)
_EMPTY = _Shape(frozenset({""}), None)


def _usable(strings: Iterable[str]) -> frozenset[str] | None:
    """A set as needles: folded, each cut to its longest safe run; None if one is empty (the
    empty string is in every text)."""
    needles = set()
    for string in strings:
        runs = "".join(c if c in SAFE else "\0" for c in fold(string)).split("\0")
        best = max(runs, key=len)
        if not best.strip():
            return None
        needles.add(best)
    # A needle holding another of its set adds nothing: the shorter is found wherever it is.
    return frozenset(n for n in needles if not any(m != n and m in n for m in needles)) or None


def _best(candidates: Iterable[frozenset[str] | None]) -> frozenset[str] | None:
    """The most telling set: the longest shortest needle, then the fewest needles."""
    usable = [c for c in candidates if c]
    if not usable:
        return None
    return max(usable, key=lambda c: (min(len(n) for n in c), -len(c)))


def _product(left: frozenset[str], right: frozenset[str]) -> frozenset[str] | None:
    if len(left) * len(right) > MAX_STRINGS:
        return None
    return frozenset(a + b for a in left for b in right)


def _sequence(items: Sequence[tuple[Any, Any]]) -> _Shape:
    """Parts in a row: runs of parts with few exact strings concatenate into one set."""
    candidates: list[frozenset[str] | None] = []
    chain: frozenset[str] = frozenset({""})
    whole: frozenset[str] | None = frozenset({""})
    for op, av in items:
        part = _node(op, av)
        candidates.append(part.needs)
        if part.exact is None:
            candidates.append(_usable(chain))
            chain, whole = frozenset({""}), None
            continue
        joined = _product(chain, part.exact)
        if joined is None:
            candidates.append(_usable(chain))
            joined = part.exact
        chain = joined
        whole = None if whole is None else _product(whole, part.exact)
    candidates.append(_usable(chain))
    return _Shape(whole, _best(candidates))


def _alternatives(alternatives: Sequence[Any]) -> _Shape:
    shapes = [_sequence(a) for a in alternatives]
    exact: frozenset[str] | None = None
    if all(s.exact is not None for s in shapes):
        union = frozenset().union(*(s.exact for s in shapes if s.exact is not None))
        exact = union if len(union) <= MAX_STRINGS else None
    if any(s.needs is None for s in shapes):
        return _Shape(exact, _usable(exact) if exact is not None else None)
    return _Shape(exact, frozenset().union(*(s.needs for s in shapes if s.needs is not None)))


def _repeat(low: int, high: int, body: Any) -> _Shape:
    inner = _sequence(body)
    if low == 0:
        optional = None if high != 1 or inner.exact is None else inner.exact | {""}
        return _Shape(optional, None)
    needs = inner.needs if inner.needs is not None else (
        _usable(inner.exact) if inner.exact is not None else None)
    return _Shape(inner.exact if low == high == 1 else None, needs)


def _class(items: Sequence[tuple[Any, Any]]) -> _Shape:
    """A character class of a few literal characters; anything else (ranges, categories,
    negation) is left unknown."""
    if len(items) > 8 or any(op is not sre.LITERAL for op, _ in items):
        return _ANYTHING
    return _Shape(frozenset(chr(av) for _, av in items), None)


def _node(op: Any, av: Any) -> _Shape:
    if op is sre.LITERAL:
        return _Shape(frozenset({chr(av)}), None)
    if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
        return _EMPTY  # zero-width: the characters either side stay adjacent
    if op is sre.IN:
        return _class(av)
    if op is sre.BRANCH:
        return _alternatives(av[1])
    if op is sre.SUBPATTERN:
        return _sequence(av[3])
    if op is sre.ATOMIC_GROUP:
        return _sequence(av)
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
        return _repeat(av[0], av[1], av[2])
    return _ANYTHING


def needles(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """Strings (folded) one of which every match of `pattern` contains; None if none known."""
    shape = _sequence(list(sre_parse.parse(pattern.pattern, pattern.flags)))
    return shape.needs


class Prefilter:
    """The patterns that may match a text, in their order, by their needles.

    Needles are filed by their first three characters: a text is cut into its trigrams
    once, and only the needles filed under one of them are looked for."""

    def __init__(self, patterns: Sequence[re.Pattern[str]]) -> None:
        self._needs = [needles(p) for p in patterns]
        self._always = frozenset(i for i, n in enumerate(self._needs) if n is None)
        owners: dict[str, set[int]] = {}
        for index, needs in enumerate(self._needs):
            for needle in needs or ():
                owners.setdefault(needle, set()).add(index)
        self._short = [(n, frozenset(o)) for n, o in owners.items() if len(n) < GRAM]
        self._filed: dict[str, list[tuple[str, frozenset[int]]]] = {}
        for needle, indexes in owners.items():
            if len(needle) >= GRAM:
                self._filed.setdefault(needle[:GRAM], []).append((needle, frozenset(indexes)))

    def candidates(self, text: str) -> list[int]:
        """Indexes of the patterns that may match `text` (every one that does), in order."""
        folded = fold(text)
        grams = {folded[i:i + GRAM] for i in range(len(folded) - GRAM + 1)}
        hit = set(self._always)
        for needle, indexes in self._short:
            if needle in folded:
                hit |= indexes
        for gram in grams.intersection(self._filed):
            for needle, indexes in self._filed[gram]:
                if needle in folded:
                    hit |= indexes
        return sorted(hit)

    @property
    def unknown(self) -> int:
        """How many patterns run on every text (no needle found)."""
        return len(self._always)
