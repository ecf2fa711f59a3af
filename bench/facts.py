"""Fact extraction benchmark: hand-labelled EN/DE sentences through the pattern extractor.

    .venv/bin/python bench/facts.py [--data-dir DIR] [--split dev|test|all] [--errors] [--json]

Reads bench/data/facts_labelled.jsonl (sentences with their facts; "split" is dev, what the
patterns were written against, or test, written before the patterns and never tuned on),
facts_supersession.jsonl (statement histories and the objects a new statement supersedes) and
relation_questions.jsonl (questions and the relations they ask about). A predicted fact is
right when relation, type, polarity and normalised object match a labelled one. Prints
precision and recall per fact type and overall (per split), supersession cases right/total
and relation-question accuracy; --errors lists every miss and false fact.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import uuid4

from memlane.domain.facts.extraction import extract_facts, relations_asked
from memlane.domain.facts.model import (
    ExtractedFact,
    Fact,
    FactType,
    fact_from_extracted,
    normalise,
    supersede,
    superseded_facts,
)

DATA = Path(__file__).resolve().parent / "data"
Key = tuple[str, str, str, bool]


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def labelled_key(fact: Mapping[str, Any]) -> Key:
    return (fact["type"], fact["relation"], normalise(fact["object"]), bool(fact.get("negated")))


def predicted_key(fact: ExtractedFact) -> Key:
    return (fact.fact_type.value, fact.relation, normalise(fact.object), fact.negated)


def ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def score_extraction(rows: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], list[str]]:
    right: Counter[str] = Counter()
    predicted: Counter[str] = Counter()
    labelled: Counter[str] = Counter()
    errors: list[str] = []
    for row in rows:
        gold = Counter(labelled_key(f) for f in row["facts"])
        guess = Counter(predicted_key(f) for f in extract_facts(row["text"]))
        hits = gold & guess
        for counter, keys in ((right, hits), (predicted, guess), (labelled, gold)):
            for key, count in keys.items():
                counter[key[0]] += count
        errors += [f"miss  {row['text']!r}: {k[1]} {k[2]!r}{' (neg)' * k[3]}"
                   for k in (gold - guess).elements()]
        errors += [f"false {row['text']!r}: {k[1]} {k[2]!r}{' (neg)' * k[3]}"
                   for k in (guess - gold).elements()]
    types = {
        t.value: {"precision": ratio(right[t.value], predicted[t.value]),
                  "recall": ratio(right[t.value], labelled[t.value]),
                  "labelled": labelled[t.value], "predicted": predicted[t.value]}
        for t in FactType
    }
    total_right, total_pred, total_gold = (sum(c.values()) for c in (right, predicted, labelled))
    negatives = [r for r in rows if not r["facts"]]
    clean = sum(1 for r in negatives if not extract_facts(r["text"]))
    overall = {"precision": ratio(total_right, total_pred),
               "recall": ratio(total_right, total_gold), "sentences": len(rows),
               "no_fact_sentences_left_empty": f"{clean}/{len(negatives)}"}
    return {"per_type": types, "overall": overall}, errors


def facts_of(statements: Iterable[str], now: datetime) -> list[Fact]:
    """The facts a history leaves current, statement by statement, supersession applied."""
    stored: list[Fact] = []
    for step, text in enumerate(statements):
        at = now + timedelta(minutes=step)
        for new in extract_facts(text):
            ended = {f.id for f in superseded_facts(stored, new, now=at)}
            kept = None if new.negated else fact_from_extracted(new, fact_id=uuid4(), now=at)
            stored = [supersede(f, now=at, by=kept.id if kept else None) if f.id in ended else f
                      for f in stored]
            stored += [kept] if kept else []
    return stored


def score_supersession(cases: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], list[str]]:
    now = datetime(2025, 1, 1, tzinfo=UTC)
    right, errors = 0, []
    for case in cases:
        history = facts_of(case["history"], now)
        at = now + timedelta(days=1)
        got = {(f.relation, normalise(f.object)) for new in extract_facts(case["new"])
               for f in superseded_facts(history, new, now=at)}
        want = {(s["relation"], normalise(s["object"])) for s in case["superseded"]}
        right += got == want
        if got != want:
            errors.append(f"supersession {case['id']} {case['new']!r}: got {sorted(got)}, "
                          f"want {sorted(want)}")
    return {"right": right, "total": len(cases)}, errors


def score_questions(rows: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], list[str]]:
    right, errors = 0, []
    for row in rows:
        got, want = relations_asked(row["text"]), frozenset(row["relations"])
        right += got == want
        if got != want:
            errors.append(f"question {row['text']!r}: got {sorted(got)}, want {sorted(want)}")
    return {"right": right, "total": len(rows), "accuracy": ratio(right, len(rows))}, errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=DATA)
    parser.add_argument("--split", choices=("dev", "test", "probe", "all"), default="all")
    parser.add_argument("--errors", action="store_true", help="list misses and false facts")
    parser.add_argument("--json", action="store_true", help="print the JSON report only")
    args = parser.parse_args()
    rows = load(args.data_dir / "facts_labelled.jsonl")
    splits = ("dev", "test", "probe", "all") if args.split == "all" else (args.split,)
    report: dict[str, Any] = {}
    errors: list[str] = []
    for split in splits:
        chosen = [r for r in rows if split == "all" or r.get("split", "dev") == split]
        report[f"extraction_{split}"], split_errors = score_extraction(chosen)
        if split == args.split:
            errors += split_errors
    report["supersession"], sup_errors = score_supersession(
        load(args.data_dir / "facts_supersession.jsonl"))
    report["relation_questions"], q_errors = score_questions(
        load(args.data_dir / "relation_questions.jsonl"))
    errors += sup_errors + q_errors
    if not args.json:
        for split in splits:
            part = report[f"extraction_{split}"]
            print(f"[{split}] overall {part['overall']}")
            for name, figures in part["per_type"].items():
                print(f"  {name:<11} P={figures['precision']} R={figures['recall']} "
                      f"({figures['predicted']} predicted / {figures['labelled']} labelled)")
        print(f"supersession {report['supersession']}  questions {report['relation_questions']}")
        if args.errors:
            print("\n".join(errors))
    print(json.dumps(report, indent=None if args.json else 2, ensure_ascii=False))


if __name__ == "__main__":
    main()
