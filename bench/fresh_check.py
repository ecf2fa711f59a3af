"""Format check of the blind evaluation sets (bench/data/fresh*/): keys, types, ids, shares.

    .venv/bin/python bench/fresh_check.py [--dir DIR]    # DIR: one of FRESH_DIRS (default fresh)

Standard library only, on purpose: it never imports the extractor or the supersession rules
and never scores anything, so checking the files cannot show how the rules do on them. It
prints counts per file, language and family as JSON and exits 1 when a row is malformed.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

FRESH = Path(__file__).resolve().parent / "data" / "fresh"
# Every blind set written so far; each folder's ids start with its name and a dash.
FRESH_DIRS = (FRESH, FRESH.parent / "fresh2", FRESH.parent / "fresh3", FRESH.parent / "fresh4",
              FRESH.parent / "fresh5")
LANGS = ("en", "de")
MIN_GERMAN = 0.45
# The label vocabulary of bench/data/facts_labelled.jsonl: each relation has one fact type.
TYPES = {
    "identity": "name age lives_in works_at works_as works_in comes_from birthday birthplace "
                "birth_year nationality partner pet children daughter son brother sister "
                "mother father",
    "constraint": "allergic_to intolerant_to condition diet avoids cannot afraid_of rule",
    "preference": "likes dislikes prefers",
    "commitment": "commits_to",
    "event": "event",
    "trait": "trait",
}
TYPE_OF = {relation: kind for kind, names in TYPES.items() for relation in names.split()}
DATE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")
KINDS = ("supersedes", "contradiction")
Row = Mapping[str, Any]
Check = Callable[[Row], list[str]]


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _texts(value: Any, low: int, high: int) -> bool:
    return isinstance(value, list) and low <= len(value) <= high and all(map(_text, value))


def _keys(row: Row, required: set[str], optional: frozenset[str] = frozenset()) -> list[str]:
    missing, extra = required - row.keys(), row.keys() - required - optional
    return ([f"missing {sorted(missing)}"] if missing else []) + (
        [f"unknown keys {sorted(extra)}"] if extra else [])


def scenario_problems(row: Row) -> list[str]:
    """A supersession scenario: 2-6 older statements, a new one, the index it replaces or null."""
    problems = _keys(row, {"id", "lang", "split", "category", "history", "new", "supersedes",
                           "kind"})
    if problems:
        return problems
    if not _texts(row["history"], 2, 6) or not _text(row["new"]) or not _text(row["category"]):
        problems.append("history must be 2-6 texts; new and category non-empty")
    index, kind = row["supersedes"], row["kind"]
    if index is None:
        problems += [] if kind is None else ["a negative has kind null"]
    elif not isinstance(index, int) or isinstance(index, bool) or not (
            0 <= index < len(row["history"])):
        problems.append(f"supersedes {index!r} is not an index into history")
    elif kind not in KINDS:
        problems.append(f"a positive's kind is one of {KINDS}")
    return problems


def fact_problems(fact: Any, dated: bool) -> list[str]:
    """One labelled fact: a known relation with its type; optional subject, polarity, dates."""
    if not isinstance(fact, dict):
        return ["a fact is an object"]
    optional = {"subject", "negated", "since", "due", "when"} if dated else {"subject"}
    required = {"relation", "object", "type"} if dated else {"relation", "object"}
    problems = _keys(fact, required, frozenset(optional))
    if problems:
        return problems
    relation = fact["relation"]
    if relation not in TYPE_OF or not _text(fact["object"]):
        return [f"unknown relation {relation!r} or empty object"]
    if dated and fact["type"] != TYPE_OF[relation]:
        problems.append(f"{relation} has type {TYPE_OF[relation]}, not {fact['type']}")
    if "negated" in fact and fact["negated"] is not True:
        problems.append("negated is true or absent")
    problems += [f"{key} {fact[key]!r} is not YYYY[-MM[-DD]]" for key in ("since", "due")
                 if key in fact and not DATE.match(str(fact[key]))]
    problems += [f"{key} is a non-empty text" for key in ("subject", "when")
                 if key in fact and not _text(fact[key])]
    return problems


def labelled_problems(row: Row) -> list[str]:
    """A sentence and every fact a careful annotator finds in it (none for small talk)."""
    problems = _keys(row, {"id", "lang", "split", "family", "text", "facts"})
    if problems:
        return problems
    if not _text(row["text"]) or not isinstance(row["facts"], list):
        return ["text non-empty and facts a list"]
    return [p for fact in row["facts"] for p in fact_problems(fact, dated=True)]


def history_problems(row: Row) -> list[str]:
    """A statement history, a new statement, and the facts of the history it ends."""
    problems = _keys(row, {"id", "lang", "family", "history", "new", "superseded"})
    if problems:
        return problems
    if not _texts(row["history"], 1, 8) or not _text(row["new"]):
        return ["history 1-8 texts and new non-empty"]
    if not isinstance(row["superseded"], list):
        return ["superseded is a list"]
    return [p for fact in row["superseded"] for p in fact_problems(fact, dated=False)]


def question_problems(row: Row) -> list[str]:
    """A question and the relations it asks about (sorted, known, possibly none)."""
    problems = _keys(row, {"text", "lang", "relations"})
    if problems:
        return problems
    relations = row["relations"]
    if not _text(row["text"]) or not isinstance(relations, list):
        return ["text non-empty and relations a list"]
    unknown = [r for r in relations if r not in TYPE_OF]
    return ([f"unknown relations {unknown}"] if unknown else []) + (
        [] if relations == sorted(set(relations)) else ["relations sorted, without repeats"])


# file name -> (row check, the key rows are counted by, the fewest rows the set may have)
FILES: dict[str, tuple[Check, str, int]] = {
    "supersession_scenarios.jsonl": (scenario_problems, "category", 160),
    "facts_labelled.jsonl": (labelled_problems, "family", 160),
    "facts_supersession.jsonl": (history_problems, "family", 60),
    "relation_questions.jsonl": (question_problems, "lang", 40),
}


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def file_report(rows: Sequence[Row], check: Check, group: str, least: int,
                prefix: str = "fresh-") -> dict[str, Any]:
    """Counts per language and group, and every problem found (row number: problem)."""
    problems = [f"row {n}: {p}" for n, row in enumerate(rows, 1) for p in check(row)]
    problems += [f"row {n}: lang is en or de" for n, row in enumerate(rows, 1)
                 if row.get("lang") not in LANGS]
    keys = [str(row.get("id") or row.get("text")) for row in rows]
    problems += [f"duplicate id or text {k!r}" for k, c in Counter(keys).items() if c > 1]
    problems += [f"id {k!r} lacks the {prefix} prefix" for row, k in zip(rows, keys, strict=True)
                 if "id" in row and not k.startswith(prefix)]
    langs = Counter(str(row.get("lang")) for row in rows)
    german = langs["de"] / len(rows) if rows else 0.0
    problems += [f"{len(rows)} rows, fewer than {least}"] if len(rows) < least else []
    problems += [f"German share {german:.2f} below {MIN_GERMAN}"] if german < MIN_GERMAN else []
    return {"rows": len(rows), "by_lang": dict(sorted(langs.items())),
            "german_share": round(german, 3),
            "by_group": dict(sorted(Counter(str(row.get(group)) for row in rows).items())),
            "problems": problems}


def extra_counts(name: str, rows: Sequence[Row]) -> dict[str, Any]:
    """Per-file shares worth seeing beside the counts: positives, kinds, empty labels."""
    if name == "supersession_scenarios.jsonl":
        return {"positives": sum(r.get("supersedes") is not None for r in rows),
                "by_kind": dict(sorted(Counter(str(r.get("kind")) for r in rows).items()))}
    if name == "facts_labelled.jsonl":
        return {"no_fact_sentences": sum(not r.get("facts") for r in rows),
                "facts": sum(len(r.get("facts") or []) for r in rows)}
    if name == "facts_supersession.jsonl":
        return {"controls": sum(not r.get("superseded") for r in rows)}
    return {"no_relation_questions": sum(not r.get("relations") for r in rows)}


def check_dir(folder: Path) -> dict[str, Any]:
    """The report of every fresh file in `folder` (a missing file is a problem)."""
    report: dict[str, Any] = {}
    for name, (check, group, least) in FILES.items():
        path = folder / name
        if not path.exists():
            report[name] = {"problems": [f"{path} is missing"]}
            continue
        rows = load(path)
        report[name] = {**file_report(rows, check, group, least, f"{folder.name}-"),
                        **extra_counts(name, rows)}
    return report


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=FRESH, help="folder of the fresh files")
    report = check_dir(parser.parse_args(argv).dir)
    print(json.dumps(report, ensure_ascii=False, indent=1))
    sys.exit(1 if any(part["problems"] for part in report.values()) else 0)


if __name__ == "__main__":
    main()
