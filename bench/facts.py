"""Fact extraction benchmark: hand-labelled EN/DE sentences through the pattern extractor.

    .venv/bin/python bench/facts.py [--data-dir DIR] [--half tune|test|all] [--errors] [--json]
                                    [--locomo FILE]

Reads bench/data/facts_labelled.jsonl (sentences with their facts), facts_supersession.jsonl
(statement histories and the facts a new statement ends) and relation_questions.jsonl
(questions and the relations they ask about). Every set is split into a tuning and a test
half by a hash of each row's id (bench/halves.py); figures are given per half, language and
family. A predicted fact is right when type, relation, polarity and normalised object match
a labelled one, and its subject when the label names one ("Ben" for "my son Ben is 7").
Labels may date a fact: `since` (when it began: "since March", "seit 2019", "for 12 years")
and `due` (an appointment or deadline: "tomorrow at 8", "am 3. Juli"), both resolved against
one message time; their accuracy is reported apart. `--errors` lists the tuning half's misses
and false facts only. `--locomo` adds precision on 100 labelled LoCoMo turns
(bench/locomo_facts.py).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import uuid4

from halves import HALVES, MESSAGE_TIME_ISO, TUNE, by_group, gap_points, in_half
from locomo_facts import DEFAULT_LOCOMO, locomo_report, matches
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
from memlane.domain.facts.time import fact_dates

DATA = Path(__file__).resolve().parent / "data"
NOW = datetime.fromisoformat(MESSAGE_TIME_ISO)


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def family(row: Mapping[str, Any]) -> str:
    return str(row.get("family") or f"v1-{row.get('split', 'dev')}")


def _date_of(fact: ExtractedFact, key: str) -> str | None:
    start, due = fact_dates(fact, NOW)
    found = start if key == "since" else due
    return found.iso() if found is not None else None


def score_extraction(rows: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], list[str]]:
    right: dict[str, int] = {t.value: 0 for t in FactType}
    predicted = dict(right)
    labelled = dict(right)
    dated = {"since": [0, 0], "due": [0, 0]}
    errors: list[str] = []
    for row in rows:
        gold = list(row["facts"])
        guesses = extract_facts(row["text"])
        hit, extra = matches(gold, guesses)
        for fact in gold:
            labelled[fact["type"]] += 1
        for guess in guesses:
            predicted[guess.fact_type.value] += 1
        for label, guess in hit:
            right[label["type"]] += 1
            for key in ("since", "due"):
                if key in label:
                    dated[key][1] += 1
                    dated[key][0] += (_date_of(guess, key) or "").startswith(label[key])
        errors += [f"miss  {row['text']!r}: {g.get('subject', '')}/{g['relation']} "
                   f"{g['object']!r}{' (neg)' * bool(g.get('negated'))}"
                   for g in gold if all(g is not h for h, _ in hit)]
        errors += [f"false {row['text']!r}: {f.subject}/{f.relation} {f.object!r}"
                   f"{' (neg)' * f.negated}" for f in extra]
    types = {
        t: {"precision": ratio(right[t], predicted[t]), "recall": ratio(right[t], labelled[t]),
            "labelled": labelled[t], "predicted": predicted[t]}
        for t in right
    }
    total_right, total_pred, total_gold = (sum(c.values()) for c in (right, predicted, labelled))
    negatives = [r for r in rows if not r["facts"]]
    clean = sum(1 for r in negatives if not extract_facts(r["text"]))
    overall = {"precision": ratio(total_right, total_pred),
               "recall": ratio(total_right, total_gold), "sentences": len(rows),
               "no_fact_sentences_left_empty": f"{clean}/{len(negatives)}",
               "since_right": f"{dated['since'][0]}/{dated['since'][1]}",
               "due_right": f"{dated['due'][0]}/{dated['due'][1]}"}
    return {"overall": overall, "per_type": types}, errors


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


def _ended_key(subject: str | None, relation: str, obj: str) -> tuple[str, str, str]:
    return (normalise(subject or "user"), relation, normalise(obj))


def score_supersession(cases: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], list[str]]:
    right, errors = 0, []
    for case in cases:
        history = facts_of(case["history"], NOW - timedelta(days=1))
        got = {_ended_key(f.subject, f.relation, f.object)
               for new in extract_facts(case["new"])
               for f in superseded_facts(history, new, now=NOW)}
        want = {_ended_key(s.get("subject"), s["relation"], s["object"])
                for s in case["superseded"]}
        right += got == want
        if got != want:
            errors.append(f"supersession {case['id']} {case['new']!r}: got {sorted(got)}, "
                          f"want {sorted(want)}")
    return {"right": right, "total": len(cases), "accuracy": ratio(right, len(cases))}, errors


def score_questions(rows: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], list[str]]:
    right, errors = 0, []
    for row in rows:
        got, want = relations_asked(row["text"]), frozenset(row["relations"])
        right += got == want
        if got != want:
            errors.append(f"question {row['text']!r}: got {sorted(got)}, want {sorted(want)}")
    return {"right": right, "total": len(rows), "accuracy": ratio(right, len(rows))}, errors


def halves_report(rows: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], list[str]]:
    """Extraction per half, per half and language, per half and family; the tuning errors."""
    report: dict[str, Any] = {}
    errors: list[str] = []
    for half in HALVES:
        part = in_half(rows, half)
        report[half], half_errors = score_extraction(part)
        errors += half_errors if half == TUNE else []
        report[half]["by_lang"] = {
            lang: score_extraction(group)[0]["overall"]
            for lang, group in by_group(part, lambda r: r["lang"]).items()
        }
        report[half]["by_family"] = {
            name: {k: v for k, v in score_extraction(group)[0]["overall"].items()
                   if k in ("precision", "recall", "sentences")}
            for name, group in by_group(part, family).items()
        }
    report["gap_points"] = {
        key: gap_points(report[TUNE]["overall"][key], report["test"]["overall"][key])
        for key in ("precision", "recall")
    }
    return report, errors


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", type=Path, default=DATA)
    parser.add_argument("--errors", action="store_true", help="list the tuning half's errors")
    parser.add_argument("--locomo", type=Path, nargs="?", const=DEFAULT_LOCOMO,
                        help="LoCoMo conversations for the labelled turns")
    parser.add_argument("--json", action="store_true", help="print the JSON report only")
    args = parser.parse_args(argv)
    report: dict[str, Any] = {}
    report["extraction"], errors = halves_report(load(args.data_dir / "facts_labelled.jsonl"))
    cases = load(args.data_dir / "facts_supersession.jsonl")
    report["supersession"] = {}
    for half in HALVES:
        report["supersession"][half], sup_errors = score_supersession(in_half(cases, half))
        errors += sup_errors if half == TUNE else []
    questions = load(args.data_dir / "relation_questions.jsonl")
    report["relation_questions"], q_errors = score_questions(in_half(questions, TUNE))
    report["relation_questions_test"] = score_questions(in_half(questions, "test"))[0]
    errors += q_errors
    if args.locomo is not None:
        report["locomo"], locomo_errors = locomo_report(
            args.locomo, load(args.data_dir / "locomo_facts_labels.jsonl"))
        errors += locomo_errors
    if not args.json:
        for half in HALVES:
            part = report["extraction"][half]
            print(f"[{half}] {part['overall']}")
            for lang, figures in part["by_lang"].items():
                print(f"  {lang} P={figures['precision']} R={figures['recall']}")
        if args.errors:
            print("\n".join(errors))
    print(json.dumps(report, indent=None if args.json else 2, ensure_ascii=False))


if __name__ == "__main__":
    main()
