"""Fact precision on 100 LoCoMo turns, one speaker as the user (issue 23, items 8 and 9).

bench/data/locomo_facts_labels.jsonl holds, per turn, only its place in the conversation
(`sample_id`, `dia_id`) and the facts a careful reader takes from it; the turn's text is read
from the LoCoMo file at run time (its licence keeps it out of this repository). The turns
are the 20 of each development conversation whose `sample_id:dia_id` hash lowest among
`speaker_a`'s turns (speaker_a is the user), so they were not picked by what they say. A
label may give several acceptable spellings of one object (`objects`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from halves import HALVES, TUNE, in_half
from memlane.domain.facts.extraction import extract_facts
from memlane.domain.facts.model import ExtractedFact, normalise

DEFAULT_LOCOMO = Path("/work/shared/bench/locomo/locomo-dev.json")


def _objects(label: Mapping[str, Any]) -> set[str]:
    return {normalise(o) for o in label.get("objects") or [label["object"]]}


def _fits(label: Mapping[str, Any], guess: ExtractedFact) -> bool:
    subject = label.get("subject")
    return (label["type"] == guess.fact_type.value and label["relation"] == guess.relation
            and bool(label.get("negated")) == guess.negated
            and normalise(guess.object) in _objects(label)
            and (subject is None or normalise(subject) == normalise(guess.subject)))


def matches(
    gold: Sequence[Mapping[str, Any]], guesses: Sequence[ExtractedFact]
) -> tuple[list[tuple[Mapping[str, Any], ExtractedFact]], list[ExtractedFact]]:
    """Each label paired with at most one prediction that fits it; the predictions left."""
    left = list(guesses)
    hit = []
    for label in gold:
        found = next((g for g in left if _fits(label, g)), None)
        if found is not None:
            left.remove(found)
            hit.append((label, found))
    return hit, left


def _turns(path: Path) -> dict[tuple[str, str], str]:
    samples = json.loads(path.read_text(encoding="utf-8"))
    return {
        (sample["sample_id"], turn["dia_id"]): turn["text"]
        for sample in samples
        for key, session in sample["conversation"].items()
        if key.startswith("session_") and isinstance(session, list)
        for turn in session
    }


def _score(rows: Sequence[Mapping[str, Any]], texts: Mapping[tuple[str, str], str],
           errors: list[str] | None) -> dict[str, Any]:
    right = predicted = labelled = 0
    for row in rows:
        guesses = extract_facts(texts[(row["sample_id"], row["dia_id"])])
        hit, extra = matches(row["facts"], guesses)
        right, predicted, labelled = (right + len(hit), predicted + len(guesses),
                                      labelled + len(row["facts"]))
        if errors is not None:
            # The turn's place and the predicted fact only: the text stays in the LoCoMo file.
            errors += [f"locomo false {row['sample_id']} {row['dia_id']}: {f.relation} "
                       f"{f.object!r}" for f in extra]
    return {"turns": len(rows), "predicted": predicted, "right": right, "labelled": labelled,
            "precision": round(right / predicted, 3) if predicted else None,
            "recall": round(right / labelled, 3) if labelled else None}


def locomo_report(
    path: Path, labels: Sequence[Mapping[str, Any]]
) -> tuple[dict[str, Any], list[str]]:
    """Precision and recall over all labelled turns and per half; the tuning half's errors."""
    texts = _turns(path)
    keyed = [{**row, "id": f"{row['sample_id']}:{row['dia_id']}"} for row in labels]
    errors: list[str] = []
    report = {"all": _score(keyed, texts, None)}
    for half in HALVES:
        report[half] = _score(in_half(keyed, half), texts, errors if half == TUNE else None)
    return report, errors
