"""Features of an embedding-based supersession judge (bench/supersession_embed.py's).

Per (new statement, candidate) pair, from one model's vectors of the two statements' own
words: the cosine, its gap to the best candidate's, nearest or not; the pair's likeness to
labelled pairs of the training folds ("neighbours"); the new statement against the training
folds' "says a change" prototype; the pair's u*v and |u-v| on a few principal axes. Bench
code only: the test half never reaches it (the caller filters it out first).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memlane.adapters.embedding.catalog import MINILM, ONNX_MODELS
from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.ports.embedding import EmbedKind
from supersession_judge import Case

AXES = 4  # principal axes of u*v and of |u-v|
NEAREST = 3
GROUPS = ("cosine", "neighbours", "change", "axes")
LEFT_OUT: set[str] = set()  # embedding groups left out (--without)
CACHE = Path("/tmp") / "memlane-supersession-embed"
Vectors = dict[str, np.ndarray]


async def embed(texts: Sequence[str], model: str, kind: EmbedKind = "document") -> Vectors:
    """Each text's vector (by default the document kind, as the service stores memories;
    e5's "query: " prefix is the one its authors give for symmetric tasks); cached under
    /tmp between runs by model and kind (delete it after a model changes)."""
    path = CACHE / f"{model}-{kind}.npz"
    if path.exists():
        stored = np.load(path)
        cached = dict(zip(stored["texts"].tolist(), stored["vectors"], strict=True))
        if set(texts) <= cached.keys():
            return cached
    adapter = OnnxEmbeddingAdapter(ONNX_MODELS.get(model, MINILM))
    await adapter.warm_up()
    try:
        vectors = np.asarray(await adapter.embed(list(texts), kind), dtype=np.float64)
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


def nearest_margin(sim: np.ndarray, bank_y: np.ndarray) -> np.ndarray:
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
    groups = {
        "cosine": [rows.cos[sel], rows.gap[sel], (rows.gap[sel] >= 0).astype(float)],
        "neighbours": [nearest_margin(pair_sim, by), nearest_margin(dir_sim, by)],
        "change": [u @ change], "axes": axes,
    }
    return np.column_stack([c for name, cols in groups.items() if name not in LEFT_OUT
                            for c in cols])


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


def twin_folds(rows: Sequence[Mapping[str, Any]], vectors: Vectors, salt: str, folds: int,
               line: float) -> np.ndarray:
    """Folds that keep a scenario and its translation together: many EN and DE scenarios are
    the same story in two languages, so a German one's English twin in a training fold is a
    near-copy (multilingual vectors make it one). Twins: mutual nearest of the other
    language by the scenario's mean vector (new + older statements), at least `line`."""
    def mean(s: Mapping[str, Any]) -> np.ndarray:
        v = np.mean([vectors[t] for t in (s["new"], *s["history"])], axis=0)
        return v / np.linalg.norm(v)
    v = np.array([mean(s) for s in rows])
    lang = np.array([s["lang"] for s in rows])
    sim = np.where(lang[:, None] != lang[None, :], v @ v.T, -1.0)
    best = sim.argmax(axis=1)
    key = [s["id"] for s in rows]
    for i, j in enumerate(best):
        if best[j] == i and sim[i, j] >= line:
            key[i] = min(rows[i]["id"], rows[j]["id"])
    return np.array([hashlib.sha256(f"{salt}:{k}".encode()).digest()[0] % folds for k in key])
