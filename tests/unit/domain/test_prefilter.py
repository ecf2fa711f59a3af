"""The fact rules' prefilter never keeps a rule from a clause its regex matches."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, strategies as st

from memlane.domain.facts import extraction
from memlane.domain.facts.extraction import RULES, extract_facts
from memlane.domain.prefilter import SAFE, Prefilter, fold, needles

PREFILTER = Prefilter([r.pattern for r in RULES])
DATA = Path(__file__).resolve().parents[3] / "bench" / "data"
# Every code point but the surrogates, once: what IGNORECASE matches is read off it.
EVERY_CHARACTER = "".join(chr(c) for c in range(sys.maxunicode + 1)
                          if not 0xD800 <= c <= 0xDFFF)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)


def labelled_texts() -> list[str]:
    """Every string of every row of every labelled set in bench/data (the blind sets too):
    sentences, statement histories, questions, and labels, which only add clauses."""
    texts = {text for path in sorted(DATA.rglob("*.jsonl"))
             for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
             for text in _strings(json.loads(line)) if len(text) > 2}
    return sorted(texts)


@pytest.fixture(scope="module")
def clauses() -> list[str]:
    """Every clause the extractor hands its rules while reading the labelled texts."""
    seen: set[str] = set()
    original = extraction._rule_facts

    def recording(clause: str) -> list[Any]:
        seen.add(clause)
        return original(clause)

    extraction._rule_facts = recording  # type: ignore[assignment]
    try:
        for text in labelled_texts():
            extract_facts(text)
    finally:
        extraction._rule_facts = original  # type: ignore[assignment]
    return sorted(seen)


def test_the_labelled_sets_give_thousands_of_clauses(clauses: list[str]) -> None:
    assert len(clauses) > 5000


def test_no_rule_the_regex_matches_is_filtered_out_of_any_labelled_clause(
    clauses: list[str],
) -> None:
    prefilter = PREFILTER
    dropped = []
    for clause in clauses:
        kept = set(prefilter.candidates(clause))
        dropped += [(index, clause) for index, rule in enumerate(RULES)
                    if index not in kept and rule.pattern.search(clause)]
    assert dropped == []


def test_the_prefilter_leaves_most_rules_out_of_a_clause(clauses: list[str]) -> None:
    prefilter = PREFILTER
    run = sum(len(prefilter.candidates(clause)) for clause in clauses)
    assert run < 0.1 * len(RULES) * len(clauses)
    assert prefilter.unknown <= 5


@pytest.mark.parametrize("character", sorted(SAFE))
def test_whatever_ignorecase_matches_to_a_needle_character_folds_to_it(character: str) -> None:
    matched = re.compile(re.escape(character), re.IGNORECASE).findall(EVERY_CHARACTER)
    assert {c: fold(c) for c in matched} == {c: fold(character) for c in matched}


@pytest.mark.parametrize(("pattern", "expected"), [
    (r"\bI(?:'m| am) allergic to (?P<o>.+)", {"i'm allergic to ", "i am allergic to "}),
    (r"\b(?:mein|meine) (?:Hund|Katze)", {"mein hund", "mein katze", "meine hund",
                                         "meine katze"}),
    (r"(?:^|, )(?P<o>\w+) here", {" here"}),
    (r"^(?:bitte )?(?P<o>\w+.*)$", None),
    (r"(?:so )?tired", {"tired"}),
    (r"x?(?:ab)*", None),
])
def test_needles_are_what_every_match_contains(pattern: str, expected: set[str] | None) -> None:
    found = needles(re.compile(pattern, re.IGNORECASE))

    assert found == (None if expected is None else frozenset(expected))


_WORDS = st.sampled_from(["I'm", "I am", "\u0130'M", "ich", "bin", "\u017fo", "allergic", "to",
                          "my", "meine", "Katze", "dog", "not", "and", ",", "never", "love"])


@given(st.lists(_WORDS, min_size=1, max_size=10).map(" ".join))
def test_random_clauses_lose_no_match(clause: str) -> None:
    kept = set(PREFILTER.candidates(clause))
    assert [i for i, r in enumerate(RULES) if r.pattern.search(clause) and i not in kept] == []
