"""Trains the learned supersession judge on the tuning half only, and writes its weights.

    .venv/bin/python bench/supersession_judge.py [--data FILE] [--out FILE] [--folds 5]
                                                 [--ablate] [--json]

Every (new statement, older candidate) pair of the tuning half's scenarios
(bench/halves.py) is one row: the features `candidate_features` computes (cosine with the
default int8 all-MiniLM-L6-v2, its place among the candidates, whether the candidate is the
chain's head, the structural reading of both: holder, slots, polarity, tense, change
language, fact conflict), labelled 1 for the statement the scenario says is replaced. A
logistic regression (numpy, L2, Newton steps, no other dependency) is fitted on standardised
features. The L2 strength and the probability from which the judge replaces a candidate the
rules left undecided are chosen by cross-validation inside the tuning half (folds by a hash
of the scenario id), on the combined judge (rules first, the learned score where they find
nothing), maximising detected - 5 x wrong as bench/supersession.py does. The model is then
fitted on the whole tuning half and written to `--out` (default: the weights the package
ships, src/adapters/supersession/judge_weights.json). Only tuning-half figures are printed;
the test half is never read here.

`--ablate` asks inside the tuning half what the test half asks: the rules fit the tuning
half's sentences, so there they leave little for the learned judge to find. With a random
30 % of the change cues dropped (three seeds), the rules miss what they would miss on
unfamiliar phrasing, and the out-of-fold learned judge (trained with all cues, as shipped)
is scored on what it recovers and what it adds wrongly.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from uuid import UUID

import numpy as np

from halves import TUNE, in_half
from memlane.domain.graph import supersession_cues as cue_lists
from memlane.domain.graph.supersession import (
    DEFAULT_CUES,
    Candidate,
    SupersessionCues,
    candidate_features,
    judge_supersession,
)
from memlane.domain.graph.supersession_learned import FEATURES as ALL_FEATURES
from supersession import (
    DATA,
    WRONG_COST,
    Conflicts,
    Cosines,
    cosines,
    fact_conflicts_from_patterns,
    load,
    said_at,
)

OUT = Path(__file__).resolve().parents[1] / "src" / "adapters" / "supersession" / (
    "judge_weights.json")
L2 = (0.01, 0.1, 1.0, 3.0, 10.0, 30.0)
ABLATED_SHARE = 0.3
# Left out: the raw cosine (a conversation turn embeds with its date and reply, so its cosines
# run higher than a plain memory's) and whether the candidate is the newest (it depends on
# which candidates a route hands over): the routes must decide alike.
LEFT_OUT = frozenset(("cosine", "head"))
FEATURES = tuple(name for name in ALL_FEATURES if name not in LEFT_OUT)
THRESHOLDS = tuple(round(0.5 + 0.025 * i, 3) for i in range(20))


class Case:
    """One scenario's last judgement: each candidate's features and the rules' own pick."""

    def __init__(self, scenario: Mapping[str, Any], cos: Cosines, conflicts: Conflicts,
                 cue_set: SupersessionCues = DEFAULT_CUES) -> None:
        texts = [*scenario["history"], scenario["new"]]
        matrix = cos[scenario["id"]]
        replaced: set[UUID] = set()
        for at in range(1, len(texts)):
            ids = [UUID(int=i + 1) for i in range(at)]
            facts = conflicts(texts[at], list(zip(ids, texts[:at], strict=True)))
            pool = [Candidate(ids[i], texts[i], matrix[at][i], said_at(i)) for i in range(at)]
            kwargs: dict[str, Any] = {"fact_conflicts": facts, "replaced": frozenset(replaced),
                                      "said_at": said_at(at), "cue_set": cue_set}
            decisions = judge_supersession(texts[at], pool, **kwargs)
            if at < len(texts) - 1:
                replaced |= {d.replaces for d in decisions}
        self.id = scenario["id"]
        self.want: int | None = scenario["supersedes"]
        self.rules: int | None = decisions[0].replaces.int - 1 if decisions else None
        found = candidate_features(texts[-1], pool, **kwargs)
        self.index = [i.int - 1 for i in found]
        self.x = np.array([[values[name] for name in FEATURES] for values in found.values()],
                          dtype=float).reshape(len(found), len(FEATURES))
        self.y = np.array([float(i == self.want) for i in self.index])


def fit(x: np.ndarray, y: np.ndarray, l2: float) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                           float]:
    """Standardisation and an L2 logistic regression by Newton steps (deterministic)."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = np.hstack([np.ones((len(x), 1)), (x - mean) / scale])
    w = np.zeros(z.shape[1])
    penalty = np.full(z.shape[1], l2)
    penalty[0] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ w, -50, 50)))
        gradient = z.T @ (p - y) + penalty * w
        hessian = (z * (p * (1 - p))[:, None]).T @ z + np.diag(penalty) + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return mean, scale, w[1:], float(w[0])


def probabilities(case: Case, model: tuple[np.ndarray, np.ndarray, np.ndarray, float]
                  ) -> np.ndarray:
    mean, scale, coefficients, intercept = model
    return 1.0 / (1.0 + np.exp(-np.clip(intercept + ((case.x - mean) / scale) @ coefficients,
                                        -50, 50)))


def combined(case: Case, p: np.ndarray, threshold: float) -> int | None:
    """The rules' pick, else the learned judge's from its threshold."""
    if case.rules is not None or not len(p):
        return case.rules
    best = int(np.argmax(p))
    return case.index[best] if p[best] >= threshold else None


def tally(cases: Sequence[Case], picks: Sequence[int | None]) -> dict[str, int]:
    detected = sum(pick is not None and pick == c.want for c, pick in zip(cases, picks,
                                                                         strict=True))
    wrong = sum(pick is not None and pick != c.want for c, pick in zip(cases, picks, strict=True))
    return {"scenarios": len(cases), "positives": sum(c.want is not None for c in cases),
            "detected": detected, "wrong": wrong}


def fold_of(case: Case, folds: int) -> int:
    return hashlib.sha256(f"fold:{case.id}".encode()).digest()[0] % folds


def stacked(cases: Sequence[Case]) -> tuple[np.ndarray, np.ndarray]:
    return (np.vstack([c.x for c in cases]), np.concatenate([c.y for c in cases]))


def cross_validate(cases: Sequence[Case], folds: int) -> dict[str, Any]:
    """Out-of-fold probabilities per L2 strength; the (L2, threshold) with the best objective."""
    rows = []
    for l2 in L2:
        held: dict[str, np.ndarray] = {}
        for fold in range(folds):
            model = fit(*stacked([c for c in cases if fold_of(c, folds) != fold]), l2)
            held |= {c.id: probabilities(c, model) for c in cases if fold_of(c, folds) == fold}
        for threshold in THRESHOLDS:
            counts = tally(cases, [combined(c, held[c.id], threshold) for c in cases])
            rows.append({"l2": l2, "threshold": threshold, **counts,
                         "objective": counts["detected"] - WRONG_COST * counts["wrong"]})
    best = max(rows, key=lambda r: (r["objective"], r["threshold"], r["l2"]))
    return {"best": best, "rules_alone": tally(cases, [c.rules for c in cases]),
            "rows": [r for r in rows if r["l2"] == best["l2"]]}


def ablation(cases: Sequence[Case], scenarios: Sequence[Mapping[str, Any]], cos: Cosines,
             conflicts: Conflicts, folds: int, best: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Rules alone and rules + learned (out of fold) with 30 % of the change cues dropped."""
    models = [fit(*stacked([c for c in cases if fold_of(c, folds) != fold]), best["l2"])
              for fold in range(folds)]
    rows = []
    for seed in (1, 2, 3):
        draw = random.Random(seed)
        cue_set = SupersessionCues(change=tuple(
            cue for cue in cue_lists.CHANGE_CUES if draw.random() > ABLATED_SHARE))
        ablated = [Case(s, cos, conflicts, cue_set) for s in scenarios]
        picks = [combined(c, probabilities(c, models[fold_of(c, folds)]), best["threshold"])
                 for c in ablated]
        rows.append({"seed": seed, "rules_alone": tally(ablated, [c.rules for c in ablated]),
                     "rules_and_learned": tally(ablated, picks)})
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path, default=OUT, help="where the weights are written")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--ablate", action="store_true",
                        help="also score the judge with 30 %% of the change cues dropped")
    parser.add_argument("--json", action="store_true", help="one compact JSON object")
    args = parser.parse_args(argv)
    scenarios = in_half(load(args.data), TUNE)  # the test half is never read
    cos = asyncio.run(cosines(scenarios))
    conflicts = fact_conflicts_from_patterns()
    cases = [Case(s, cos, conflicts) for s in scenarios]
    cv = cross_validate(cases, args.folds)
    mean, scale, coefficients, intercept = fit(*stacked(cases), cv["best"]["l2"])
    digest = hashlib.sha256(args.data.read_bytes()).hexdigest()[:16]
    weights = {
        "provenance": (
            "memlane's own hand-written scenarios, bench/data/supersession_scenarios.jsonl "
            f"(sha256 {digest}), tuning half only ({len(cases)} scenarios, "
            f"{int(sum(c.y.sum() for c in cases))} replaced pairs of {sum(len(c.y) for c in cases)}"
            "); trained by bench/supersession_judge.py with the default int8 all-MiniLM-L6-v2"),
        "model": f"logistic regression, L2 {cv['best']['l2']}, standardised features",
        "features": list(FEATURES),
        "mean": [round(float(v), 6) for v in mean],
        "scale": [round(float(v), 6) for v in scale],
        "coefficients": [round(float(v), 6) for v in coefficients],
        "intercept": round(intercept, 6),
        "threshold": cv["best"]["threshold"],
    }
    args.out.write_text(json.dumps(weights, indent=1) + "\n", encoding="utf-8")
    result = {"tune_cross_validated": cv["best"], "tune_rules_alone": cv["rules_alone"],
              "sweep": cv["rows"], "weights": str(args.out),
              "coefficients": dict(zip(FEATURES, weights["coefficients"], strict=True))}
    if args.ablate:
        result["ablated"] = ablation(cases, scenarios, cos, conflicts, args.folds, cv["best"])
    print(json.dumps(result, ensure_ascii=False, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
