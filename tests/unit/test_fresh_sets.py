"""The blind evaluation sets in bench/data/fresh* stay well-formed (format only, never scored)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from bench.fresh_check import (
    FRESH_DIRS,
    check_dir,
    file_report,
    history_problems,
    labelled_problems,
    question_problems,
    scenario_problems,
)


def scenario(**change: Any) -> dict[str, Any]:
    row = {"id": "fresh-en-001", "lang": "en", "split": "fresh", "category": "chain",
           "history": ["I live in Leeds.", "I moved to York."], "new": "Now it's Durham.",
           "supersedes": 1, "kind": "supersedes"}
    return {**row, **change}


def sentence(*facts: dict[str, Any]) -> dict[str, Any]:
    return {"id": "fresh-f-de-001", "lang": "de", "split": "fresh", "family": "appointments",
            "text": "Ich bin morgen um 8 beim Zahnarzt.", "facts": list(facts)}


@pytest.mark.parametrize("folder", FRESH_DIRS, ids=lambda folder: folder.name)
def test_every_fresh_file_is_present_well_formed_and_large_enough(folder: Path) -> None:
    report = check_dir(folder)

    assert {name: part["problems"] for name, part in report.items()} == {
        name: [] for name in report}
    assert report["supersession_scenarios.jsonl"]["rows"] >= 160
    assert report["facts_labelled.jsonl"]["rows"] >= 160


@pytest.mark.parametrize("folder", FRESH_DIRS, ids=lambda folder: folder.name)
def test_every_fresh_file_is_at_least_45_percent_german(folder: Path) -> None:
    assert all(part["german_share"] >= 0.45 for part in check_dir(folder).values())


def test_a_scenario_naming_a_statement_outside_its_history_is_refused() -> None:
    assert scenario_problems(scenario()) == []
    assert scenario_problems(scenario(supersedes=2)) == [
        "supersedes 2 is not an index into history"]
    assert scenario_problems(scenario(kind=None)) == [
        "a positive's kind is one of ('supersedes', 'contradiction')"]
    assert scenario_problems(scenario(supersedes=None)) == ["a negative has kind null"]


def test_a_fact_with_the_wrong_type_or_a_bad_date_is_refused() -> None:
    good = {"relation": "commits_to", "object": "morgen um 8 beim Zahnarzt",
            "type": "commitment", "due": "2025-06-12"}

    assert labelled_problems(sentence(good)) == []
    assert labelled_problems(sentence({**good, "type": "event"})) == [
        "commits_to has type commitment, not event"]
    assert labelled_problems(sentence({**good, "due": "morgen"})) == [
        "due 'morgen' is not YYYY[-MM[-DD]]"]
    assert labelled_problems(sentence({**good, "negated": False})) == [
        "negated is true or absent"]


def test_a_history_ending_an_unknown_relation_and_an_unsorted_question_are_refused() -> None:
    case = {"id": "fresh-fs-en-001", "lang": "en", "family": "chain", "history": ["I'm 34."],
            "new": "I turned 35.", "superseded": [{"relation": "aged", "object": "34"}]}

    assert history_problems(case) == ["unknown relation 'aged' or empty object"]
    assert question_problems({"text": "How old am I?", "lang": "en",
                              "relations": ["birthday", "age"]}) == [
        "relations sorted, without repeats"]


def test_duplicate_ids_missing_prefixes_and_a_low_german_share_are_reported() -> None:
    rows = [scenario(), scenario(), scenario(id="en-9")]

    problems = file_report(rows, scenario_problems, "category", 2)["problems"]

    assert problems == ["duplicate id or text 'fresh-en-001'",
                        "id 'en-9' lacks the fresh- prefix",
                        "German share 0.00 below 0.45"]


def test_a_second_set_wants_its_own_prefix() -> None:
    rows = [scenario(id="fresh2-en-001"), scenario(id="fresh-en-002")]

    problems = file_report(rows, scenario_problems, "category", 2, "fresh2-")["problems"]

    assert problems == ["id 'fresh-en-002' lacks the fresh2- prefix",
                        "German share 0.00 below 0.45"]
