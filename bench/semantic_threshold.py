"""Calibrate graph.semantic_threshold (cosine for semantic edges) for the default embedder.

    .venv/bin/python bench/semantic_threshold.py --data locomo-dev.json
        [--negatives-per-positive 1] [--max-turns 1000] [--min-precision 0.8] [--seed 7] [--json]

On LoCoMo (CC BY-NC 4.0, not in this repository: bench/README.md says where to get it): each
conversation's turns ("text [shares a photo: caption]", as bench/locomo.py stores them) are
embedded with the ONNX all-MiniLM-L6-v2 adapter. Related pairs: two evidence turns of the same
question. Unrelated pairs: random turn pairs of the same conversation that are evidence of no
common question, N per related pair. For each candidate threshold 0.30..0.70 it prints
precision, recall and F1 of "cosine >= threshold means related", the precision the same rates
would give if unrelated pairs were ten times as common, and how many older turns a turn would
link to (the semantic edges one memory would get, before the cap of 20). The chosen threshold
is the lowest with precision >= --min-precision (most recall at that precision), else the one
with the best F1. About 8 s on two cores (2,760 turns embedded once).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import statistics
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.memory_sets import evidence_turns
from bench.recall_memlane import turn_memories

THRESHOLDS = tuple(round(0.30 + 0.05 * i, 2) for i in range(9))


def turns(sample: Mapping[str, Any], max_turns: int) -> dict[str, str]:
    """Turn id -> stored text, in conversation order, at most max_turns (as bench/locomo.py
    stores each turn)."""
    found = {str(m.metadata["sources"][0]): m.content for m in turn_memories(sample)}
    return dict(itertools.islice(found.items(), max_turns))


def related_pairs(sample: Mapping[str, Any], known: Mapping[str, str]) -> set[tuple[str, str]]:
    """Pairs of evidence turns of one question (ids normalised as in bench/locomo.py)."""
    pairs: set[tuple[str, str]] = set()
    for qa in sample["qa"]:
        ids = sorted(evidence_turns(qa.get("evidence", [])) & known.keys())
        pairs.update(itertools.combinations(ids, 2))
    return pairs


def summary(values: Sequence[float]) -> dict[str, float]:
    cuts = statistics.quantiles(values, n=10)
    return {"n": len(values), "p10": round(cuts[0], 3), "p50": round(statistics.median(values), 3),
            "p90": round(cuts[-1], 3), "mean": round(statistics.fmean(values), 3)}


async def measure(samples: Sequence[Mapping[str, Any]], args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    adapter = OnnxEmbeddingAdapter()
    await adapter.warm_up()
    related: list[float] = []
    unrelated: list[float] = []
    links: dict[float, list[int]] = {t: [] for t in THRESHOLDS}
    try:
        for sample in samples:
            texts = turns(sample, args.max_turns)
            ids = list(texts)
            matrix = np.asarray(await adapter.embed(list(texts.values())))
            sims = matrix @ matrix.T
            where = {turn: i for i, turn in enumerate(ids)}
            positives = related_pairs(sample, texts)
            related += [float(sims[where[a], where[b]]) for a, b in positives]
            wanted = len(positives) * args.negatives_per_positive
            drawn: set[tuple[str, str]] = set()
            while len(drawn) < wanted:
                a, b = sorted(rng.sample(ids, 2))
                if (a, b) not in positives:
                    drawn.add((a, b))
            unrelated += [float(sims[where[a], where[b]]) for a, b in drawn]
            # Semantic edges go from a memory to older ones only: the lower triangle.
            older = np.tril(sims, k=-1)
            for threshold in THRESHOLDS:
                links[threshold] += (older >= threshold).sum(axis=1).tolist()
    finally:
        await adapter.close()
    return {"related": related, "unrelated": unrelated, "links": links}


def evaluate(related: Sequence[float], unrelated: Sequence[float],
             links: Mapping[float, Sequence[int]], min_precision: float) -> dict[str, Any]:
    pos, neg = np.asarray(related), np.asarray(unrelated)
    ratio = len(neg) / len(pos)
    rows = []
    for threshold in THRESHOLDS:
        tp, fp = int((pos >= threshold).sum()), int((neg >= threshold).sum())
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = tp / len(pos)
        # The same true and false positive rates, with unrelated pairs ten times as common.
        rare = tp / (tp + fp * 10 / ratio) if tp + fp else 1.0
        per_turn = links[threshold]
        rows.append({
            "threshold": threshold, "precision": round(precision, 3), "recall": round(recall, 3),
            "f1": round(2 * precision * recall / (precision + recall), 3) if tp else 0.0,
            "precision_if_1_in_11_related": round(rare, 3),
            "older_links_per_turn_mean": round(statistics.fmean(per_turn), 1),
            "older_links_per_turn_p90": round(statistics.quantiles(per_turn, n=10)[-1], 1),
        })
    precise = [r for r in rows if r["precision"] >= min_precision]
    best_f1 = max(rows, key=lambda r: r["f1"])
    chosen = precise[0] if precise else best_f1
    return {"chosen_threshold": chosen["threshold"],
            "rule": f"lowest threshold with precision >= {min_precision}, else best F1",
            "best_f1_threshold": best_f1["threshold"], "rows": rows}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="LoCoMo JSON file")
    parser.add_argument("--negatives-per-positive", type=int, default=1)
    parser.add_argument("--max-turns", type=int, default=1000, help="per conversation")
    parser.add_argument("--min-precision", type=float, default=0.8)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="one compact JSON object")
    args = parser.parse_args(argv)
    if args.negatives_per_positive < 1 or args.max_turns < 2:
        parser.error("--negatives-per-positive must be >= 1 and --max-turns >= 2")
    samples = json.loads(args.data.read_text(encoding="utf-8"))
    measured = asyncio.run(measure(samples, args))
    result = {
        "model": "all-MiniLM-L6-v2 (int8 ONNX)",
        "conversations": len(samples),
        "related": summary(measured["related"]),
        "unrelated": summary(measured["unrelated"]),
        **evaluate(measured["related"], measured["unrelated"], measured["links"],
                   args.min_precision),
    }
    print(json.dumps(result, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
