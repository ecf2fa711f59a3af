"""bench/supersession_embed_features.py: folds keep translations together, and a pair's
neighbour score says which labelled pairs it resembles."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

# The supersession benches import each other as scripts (run from bench/).
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))

from supersession_embed_features import nearest_margin, twin_folds


def _unit(*values: float) -> np.ndarray:
    v = np.array(values, dtype=float)
    return v / np.linalg.norm(v)


def test_a_scenario_and_its_translation_share_a_fold() -> None:
    rows = [
        {"id": f"{lang}-{n}", "lang": lang, "new": f"{lang} new {n}",
         "history": [f"{lang} old {n}"]}
        for n in range(12) for lang in ("en", "de")
    ]
    # Each story points its own way in both languages: EN and DE of one story are twins.
    vectors = {}
    for n in range(12):
        story = _unit(*(1.0 if i == n else 0.05 for i in range(12)))
        for lang in ("en", "de"):
            vectors[f"{lang} new {n}"] = vectors[f"{lang} old {n}"] = story
    folds = twin_folds(rows, vectors, "fold", 5, line=0.9)
    assert all(folds[2 * n] == folds[2 * n + 1] for n in range(12))
    # Folds by id alone would part some of them.
    assert len(set(folds.tolist())) > 1


def test_no_twin_below_the_line() -> None:
    rows = [{"id": "en-1", "lang": "en", "new": "a", "history": ["a"]},
            {"id": "de-1", "lang": "de", "new": "b", "history": ["b"]}]
    vectors = {"a": _unit(1.0, 0.0), "b": _unit(0.0, 1.0)}
    apart = twin_folds(rows, vectors, "fold", 1000, line=0.9)
    together = twin_folds(rows, vectors, "fold", 1000, line=-1.0)
    assert together[0] == together[1]
    # Unlike stories keep a fold each by their own ids (1,000 folds: apart by the hash).
    assert apart[0] != apart[1]


def test_the_neighbour_score_leans_to_the_labelled_pairs_a_row_resembles() -> None:
    labels = np.array([1, 1, 1, 0, 0, 0], dtype=float)
    like_replaced = np.array([[0.9, 0.8, 0.85, 0.1, 0.2, 0.1]])
    like_kept = np.array([[0.1, 0.2, 0.1, 0.9, 0.8, 0.85]])
    assert nearest_margin(like_replaced, labels)[0] > 0.5
    assert nearest_margin(like_kept, labels)[0] < -0.5
