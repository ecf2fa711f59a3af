"""An embedding-based supersession judge, cross-validated inside the tuning half only.

    .venv/bin/python bench/supersession_embed.py [--model NAME ...] [--folds 5] [--ablate]
                                                 [--json]

Experiment (issue 23): does a judge that reads the pair's embeddings, beside the rules'
structural reading, find the replacements the rules miss without adding wrongs? Every
(new statement, candidate) pair the rules allow (`candidate_features`: vetoes hold) of the
tuning half's scenarios (bench/halves.py; the test half is filtered out before anything is
read) is a row, labelled 1 for the replaced statement. Feature groups:

- `structural`: the stop-35 learned judge's features (bench/supersession_judge.py);
- `embedding`, per model, from vectors of the two statements' own words: the cosine, its
  gap to the best candidate's, nearest or not; the pair's likeness to labelled pairs of the
  training folds (mean of the 3 nearest replaced pairs minus the 3 nearest kept ones, by
  the mean of new-to-new and old-to-old cosine, and by the direction new - old); the new
  statement against the training folds' "says a change" prototype (new statements of
  positives minus those of negatives); the pair's u*v and |u-v| on 4 principal axes each.

A logistic regression (supersession_judge.fit: numpy, L2, standardised) per group set. The
combined judge is the rules first, the learned pick where they find nothing (from a
threshold), optionally a veto of the rules' pick below a second threshold. Figures are
out-of-fold (folds by a hash of the scenario id, as supersession_judge.py); (L2, thresholds)
are chosen by nested CV (inner folds inside each outer training part), so the figures are
not tuned on the rows they score. Objective: detected - 5 x wrong. `--ablate` repeats it
with 30 % of the change cues dropped (three seeds): the rules then miss what unfamiliar
phrasing makes them miss, which is where such a judge must earn its place.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from halves import TUNE, in_half
from memlane.adapters.embedding.catalog import MINILM, ONNX_MODELS
from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.domain.graph import supersession_cues as cue_lists
from memlane.domain.graph.supersession import SupersessionCues
from supersession import DATA, WRONG_COST, fact_conflicts_from_patterns, load
from supersession_judge import L2, THRESHOLDS, Case, fit, tally

VETOES = (0.0, 0.02, 0.05, 0.1, 0.2)
AXES = 4  # principal axes of u*v and of |u-v|
NEAREST = 3
CACHE = Path("/tmp") / "memlane-supersession-embed"
Vectors = dict[str, np.ndarray]


async def embed(texts: Sequence[str], model: str) -> Vectors:
    """Each text's vector (the adapter's document kind, as the service stores memories);
    cached under /tmp between runs (the same model gives the same vectors)."""
    path = CACHE / f"{model}.npz"
    if path.exists():
        stored = np.load(path)
        cached = dict(zip(stored["texts"].tolist(), stored["vectors"], strict=True))
        if set(texts) <= cached.keys():
            return cached
    adapter = OnnxEmbeddingAdapter(ONNX_MODELS.get(model, MINILM))
    await adapter.warm_up()
    try:
        vectors = np.asarray(await adapter.embed(list(texts)), dtype=np.float64)
    finally:
        await adapter.close()
    CACHE.mkdir(exist_ok=True)
    np.savez(path, texts=np.array(texts), vectors=vectors)
    return dict(zip(texts, vectors, strict=True))


class Pairs:
    """Every candidate pair of the cases, with one model's vectors of both statements."""

    def __init__(self, cases: Sequence[Case], scenarios: Mapping[str, Mapping[str, Any]],
                 vectors: Vectors) -> None:
        self.case = np.array([k for k, c in enumerate(cases) for _ in c.index])
        self.y = np.concatenate([c.y for c in cases]) if cases else np.zeros(0)
        self.positive = np.array([cases[k].want is not None for k in self.case])
        u = [vectors[scenarios[c.id]["new"]] for c in cases for _ in c.index]
        v = [vectors[scenarios[c.id]["history"][i]] for c in cases for i in c.index]
        self.u = np.array(u).reshape(len(u), -1)
        self.v = np.array(v).reshape(len(v), -1)
        self.cos = np.einsum("ij,ij->i", self.u, self.v)
        direction = self.u - self.v
        self.d = direction / np.maximum(np.linalg.norm(direction, axis=1, keepdims=True), 1e-9)
        best = np.zeros(len(self.cos))
        for k in np.unique(self.case):
            best[self.case == k] = self.cos[self.case == k].max()
        self.gap = self.cos - best


def _nearest_margin(sim: np.ndarray, bank_y: np.ndarray) -> np.ndarray:
    """Mean of the NEAREST most similar replaced pairs minus that of the kept ones."""
    def top(mask: np.ndarray) -> np.ndarray:
        scores = np.where(mask[None, :], sim, -np.inf)
        k = min(NEAREST, int(mask.sum()))
        part = np.sort(scores, axis=1)[:, -k:]
        return np.where(np.isfinite(part), part, 0.0).mean(axis=1)
    return top(bank_y == 1) - top(bank_y == 0)


def embedding_features(rows: Pairs, sel: np.ndarray, bank: Pairs, bank_sel: np.ndarray,
                       same_source: bool) -> np.ndarray:
    """The embedding group of the rows `sel`, with labelled pairs `bank_sel` of `bank` as
    what is known (rows of the bank's own scenario never count as known)."""
    bu, bv, bd, by = bank.u[bank_sel], bank.v[bank_sel], bank.d[bank_sel], bank.y[bank_sel]
    u, v, d = rows.u[sel], rows.v[sel], rows.d[sel]
    pair_sim = (u @ bu.T + v @ bv.T) / 2
    dir_sim = d @ bd.T
    if same_source:  # a scenario is not its own neighbour
        own = rows.case[sel][:, None] == bank.case[bank_sel][None, :]
        pair_sim = np.where(own, -np.inf, pair_sim)
        dir_sim = np.where(own, -np.inf, dir_sim)
    firsts = np.unique(bank.case[bank_sel], return_index=True)[1]
    new_u, new_positive = bu[firsts], bank.positive[bank_sel][firsts]
    change = new_u[new_positive].mean(axis=0) - new_u[~new_positive].mean(axis=0)
    prod, diff = bu * bv, np.abs(bu - bv)
    axes = []
    for train, mine in ((prod, u * v), (diff, np.abs(u - v))):
        centre = train.mean(axis=0)
        basis = np.linalg.svd(train - centre, full_matrices=False)[2][:AXES]
        axes.append((mine - centre) @ basis.T)
    return np.column_stack([
        rows.cos[sel], rows.gap[sel], (rows.gap[sel] >= 0).astype(float),
        _nearest_margin(pair_sim, by), _nearest_margin(dir_sim, by), u @ change, *axes,
    ])


Design = Callable[[np.ndarray, np.ndarray, bool], tuple[np.ndarray, np.ndarray]]


def design(cases: Sequence[Case], pairs: Sequence[Pairs], bank_pairs: Sequence[Pairs],
           structural: bool) -> Design:
    """Features of the rows of `cases` given the training scenarios (a mask over the bank's
    cases): (X, y). `pairs` hold one Pairs per model for the cases, `bank_pairs` for the
    labelled bank."""
    xs = np.vstack([c.x for c in cases]) if structural else None
    memo: dict[tuple[bytes, bytes, bool], tuple[np.ndarray, np.ndarray]] = {}

    def build(rows: np.ndarray, bank_cases: np.ndarray, same: bool) -> tuple[np.ndarray,
                                                                            np.ndarray]:
        # The features do not depend on the L2 strength: built once per fold split.
        key = (rows.tobytes(), bank_cases.tobytes(), same)
        if key not in memo:
            memo[key] = built(rows, bank_cases, same)
        return memo[key]

    def built(rows: np.ndarray, bank_cases: np.ndarray, same: bool) -> tuple[np.ndarray,
                                                                            np.ndarray]:
        ref = pairs[0] if pairs else None
        case_of = ref.case if ref is not None else np.concatenate(
            [[k] * len(c.index) for k, c in enumerate(cases)]).astype(int)
        sel = np.isin(case_of, rows)
        parts = [xs[sel]] if xs is not None else []
        for p, b in zip(pairs, bank_pairs, strict=True):
            parts.append(embedding_features(p, sel, b, np.isin(b.case, bank_cases), same))
        y = np.concatenate([cases[k].y for k in rows])
        return np.hstack(parts), y
    return build


def probabilities_for(build: Design, train: np.ndarray, score: np.ndarray, l2: float,
                      cases: Sequence[Case], scoring: Design | None = None
                      ) -> dict[int, np.ndarray]:
    """A model fitted on `train` cases, its probabilities per candidate of each `score` case
    (of `cases`, whose features `scoring` builds; by default the training ones)."""
    x, y = build(train, train, True)
    mean, scale, w, b = fit(x, y, l2)
    out: dict[int, np.ndarray] = {}
    xs, _ = (scoring or build)(score, train, False)
    p = 1.0 / (1.0 + np.exp(-np.clip(b + ((xs - mean) / scale) @ w, -50, 50)))
    at = 0
    for k in score:
        out[int(k)] = p[at:at + len(cases[k].index)]
        at += len(cases[k].index)
    return out


def pick(case: Case, p: np.ndarray, threshold: float, veto: float) -> int | None:
    """The rules' pick unless vetoed, else the likeliest candidate from the threshold."""
    if case.rules is not None:
        if veto and case.rules in case.index and p[case.index.index(case.rules)] < veto:
            return None
        return case.rules
    if not len(p):
        return None
    best = int(np.argmax(p))
    return case.index[best] if p[best] >= threshold else None


def grid(cases: Sequence[Case], held: Mapping[float, Mapping[int, np.ndarray]],
         keys: Sequence[int], vetoes: Sequence[float]) -> tuple[float, float, float]:
    """(L2, threshold, veto) with the best objective over `keys` (ties: stricter)."""
    best: tuple[Any, ...] = ()
    for l2, probs in held.items():
        for t in THRESHOLDS:
            for veto in vetoes:
                n = tally([cases[k] for k in keys],
                          [pick(cases[k], probs[k], t, veto) for k in keys])
                key = (n["detected"] - WRONG_COST * n["wrong"], t, -veto, l2)
                best = max(best, key) if best else key
    return best[3], best[1], -best[2]


def nested(train_cases: Sequence[Case], folds: np.ndarray, build: Design,
           vetoes: Sequence[float], cases: Sequence[Case] | None = None,
           scoring: Design | None = None) -> dict[str, Any]:
    """Outer out-of-fold picks, each fold's (L2, threshold, veto) chosen by inner CV on the
    training cases; scored on `cases` (default: the same), features by `scoring`."""
    cases = cases or train_cases
    picks: dict[int, int | None] = {}
    chosen = []
    for fold in np.unique(folds):
        outer_train = np.flatnonzero(folds != fold)
        inner: dict[float, dict[int, np.ndarray]] = {l2: {} for l2 in L2}
        for inner_fold in np.unique(folds[outer_train]):
            tr = outer_train[folds[outer_train] != inner_fold]
            te = outer_train[folds[outer_train] == inner_fold]
            for l2 in L2:
                inner[l2] |= probabilities_for(build, tr, te, l2, train_cases)
        l2, t, veto = grid(train_cases, inner, list(outer_train), vetoes)
        chosen.append({"fold": int(fold), "l2": l2, "threshold": t, "veto": veto})
        test = np.flatnonzero(folds == fold)
        probs = probabilities_for(build, outer_train, test, l2, cases, scoring)
        picks |= {int(k): pick(cases[k], probs[int(k)], t, veto) for k in test}
    order = range(len(cases))
    return {**tally(cases, [picks[k] for k in order]), "chosen": chosen,
            "picks": [picks[k] for k in order]}


def figures(cases: Sequence[Case], picks: Sequence[int | None], lang: Sequence[str]
            ) -> dict[str, Any]:
    de = [k for k, language in enumerate(lang) if language == "de"]
    german = tally([cases[k] for k in de], [picks[k] for k in de])
    return {**tally(cases, picks), "de_detected": german["detected"],
            "de_positives": german["positives"]}


VARIANTS = {  # name: (structural features, embedding features)
    "learned (structural)": (True, False),
    "embedding": (False, True),
    "structural + embedding": (True, True),
}


def evaluate(cases: Sequence[Case], bank: Sequence[Case], folds: np.ndarray,
             scenarios: Mapping[str, Mapping[str, Any]], vectors: Mapping[str, Vectors],
             models: Sequence[str], veto: bool) -> dict[str, Any]:
    """Rules alone and each variant with each model set, out of fold (nested choice):
    trained on `bank` (all cues), scored on `cases` (the same, or read with cues dropped)."""
    lang = [scenarios[c.id]["lang"] for c in cases]
    result: dict[str, Any] = {"rules alone": figures(cases, [c.rules for c in cases], lang)}
    model_sets = [(m,) for m in models] + ([tuple(models)] if len(models) > 1 else [])
    for name, (structural, uses) in VARIANTS.items():
        for model_set in (model_sets if uses else [()]):
            bank_pairs = [Pairs(bank, scenarios, vectors[m]) for m in model_set]
            build = design(bank, bank_pairs, bank_pairs, structural)
            scoring = design(cases, [Pairs(cases, scenarios, vectors[m]) for m in model_set],
                             bank_pairs, structural)
            for vetoes in ((0.0,), VETOES) if veto and uses else ((0.0,),):
                label = name + (f" [{'+'.join(model_set)}]" if model_set else "") + (
                    " + veto" if len(vetoes) > 1 else "")
                run = nested(bank, folds, build, vetoes, cases, scoring)
                result[label] = {**figures(cases, run["picks"], lang), "chosen": run["chosen"]}
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--model", nargs="+", default=[MINILM.name],
                        choices=sorted(ONNX_MODELS), help="embedding models to try")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--ablate", action="store_true",
                        help="also with 30 %% of the change cues dropped (three seeds)")
    parser.add_argument("--json", action="store_true", help="one compact JSON object")
    args = parser.parse_args(argv)
    rows = in_half(load(args.data), TUNE)  # the test half is never read
    scenarios = {s["id"]: s for s in rows}
    texts = sorted({t for s in rows for t in (s["new"], *s["history"])})
    vectors = {m: asyncio.run(embed(texts, m)) for m in args.model}
    default = vectors[MINILM.name] if MINILM.name in vectors else asyncio.run(
        embed(texts, MINILM.name))
    cos = {s["id"]: [[float(default[a] @ default[b]) for b in (*s["history"], s["new"])]
                     for a in (*s["history"], s["new"])] for s in rows}
    conflicts = fact_conflicts_from_patterns()
    cases = [Case(s, cos, conflicts) for s in rows]
    from supersession_judge import fold_of
    folds = np.array([fold_of(c, args.folds) for c in cases])
    result: dict[str, Any] = {"folds": args.folds, "models": args.model, "objective":
                              f"detected - {WRONG_COST} x wrong, out of fold, nested choice",
                              "all cues": evaluate(cases, cases, folds, scenarios, vectors,
                                                   args.model, veto=True)}
    if args.ablate:
        for seed in (1, 2, 3):
            draw = random.Random(seed)
            cue_set = SupersessionCues(change=tuple(
                cue for cue in cue_lists.CHANGE_CUES if draw.random() > 0.3))
            ablated = [Case(s, cos, conflicts, cue_set) for s in rows]
            result[f"cues dropped, seed {seed}"] = evaluate(
                ablated, cases, folds, scenarios, vectors, args.model, veto=False)
    print(json.dumps(result, ensure_ascii=False, indent=None if args.json else 1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
