"""Cosine scores of related and unrelated pairs under each onnx model, to set thresholds by.

    .venv/bin/python bench/score_distributions.py --data locomo-dev.json
        [--models all-MiniLM-L6-v2,multilingual-e5-small] [--max-turns 1000] [--seed 7]

On LoCoMo (CC BY-NC 4.0, not in this repository: bench/README.md says where to get it), per
conversation, each model embeds the turns as documents (as bench/semantic_threshold.py
stores them) and the questions as queries. Four kinds of pairs, as thresholds meet them:
- `turn_related`: two evidence turns of one question; `turn_unrelated`: random pairs of
  turns of the same conversation that share no question (one per related pair). Memory to
  memory, as the merge threshold and semantic edges compare them.
- `question_evidence`: a question and each of its evidence turns; `question_other`: the
  question and a random turn of its conversation that is not its evidence (one per
  evidence pair). Query to memory, as rag_threshold filters a search.
Prints one JSON object: per model, each kind's n, mean and deciles (p10 … p90), and the
share of related pairs above each unrelated decile. Every model sees the same pairs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.centring import centring_of
from bench.memory_sets import evidence_turns
from bench.semantic_threshold import related_pairs, turns

from memlane.adapters.embedding.catalog import ONNX_MODELS
from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter

Pair = tuple[str, str]


def draw_pairs(samples: Sequence[Mapping[str, Any]], max_turns: int, seed: int) -> list[
        dict[str, Any]]:
    """Per conversation: its turns, questions and the four pair lists (ids, not texts)."""
    rng = random.Random(seed)
    drawn = []
    for sample in samples:
        texts = turns(sample, max_turns)
        ids = list(texts)
        related = sorted(related_pairs(sample, texts))
        unrelated: set[Pair] = set()
        while len(unrelated) < len(related):
            a, b = sorted(rng.sample(ids, 2))
            if (a, b) not in related:
                unrelated.add((a, b))
        questions, evidence, other = [], [], []
        for qa in sample["qa"]:
            found = sorted(evidence_turns(qa.get("evidence", [])) & texts.keys())
            if not found or not qa.get("question"):
                continue
            index = str(len(questions))
            questions.append(qa["question"])
            evidence += [(index, turn) for turn in found]
            others = [turn for turn in ids if turn not in found]
            other += [(index, rng.choice(others)) for _ in found]
        drawn.append({"turns": texts, "questions": questions, "turn_related": related,
                      "turn_unrelated": sorted(unrelated), "question_evidence": evidence,
                      "question_other": other})
    return drawn


async def scores(model: str, drawn: Sequence[Mapping[str, Any]]) -> dict[str, list[float]]:
    adapter = OnnxEmbeddingAdapter(ONNX_MODELS[model])
    found: dict[str, list[float]] = {kind: [] for kind in (
        "turn_related", "turn_unrelated", "question_evidence", "question_other")}
    try:
        centre = await centring_of(adapter, model)  # questions as the service compares them
        for conversation in drawn:
            ids = list(conversation["turns"])
            where = {turn: i for i, turn in enumerate(ids)}
            memories = np.asarray(await adapter.embed(list(conversation["turns"].values())))
            asked = centre(await adapter.embed(conversation["questions"], kind="query"))
            for kind in ("turn_related", "turn_unrelated"):
                found[kind] += [float(memories[where[a]] @ memories[where[b]])
                                for a, b in conversation[kind]]
            for kind in ("question_evidence", "question_other"):
                found[kind] += [float(asked[int(q)] @ memories[where[t]])
                                for q, t in conversation[kind]]
    finally:
        await adapter.close()
    return found


def described(values: Sequence[float]) -> dict[str, Any]:
    deciles = statistics.quantiles(values, n=10)
    return {"n": len(values), "mean": round(statistics.fmean(values), 3),
            "deciles": [round(d, 3) for d in deciles]}


def separation(related: Sequence[float], unrelated: Sequence[float]) -> dict[str, float]:
    """The share of related pairs above the unrelated pairs' p50, p90 and p99."""
    cuts = statistics.quantiles(unrelated, n=100)
    return {f"above_unrelated_p{p}": round(float(np.mean(np.asarray(related) > cuts[p - 1])), 3)
            for p in (50, 90, 99)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="LoCoMo JSON file")
    parser.add_argument("--models", default=",".join(ONNX_MODELS))
    parser.add_argument("--max-turns", type=int, default=1000, help="per conversation")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    samples = json.loads(args.data.read_text(encoding="utf-8"))
    drawn = draw_pairs(samples, args.max_turns, args.seed)
    result: dict[str, Any] = {"conversations": len(samples), "models": {}}
    for model in args.models.split(","):
        found = asyncio.run(scores(model, drawn))
        result["models"][model] = {
            **{kind: described(values) for kind, values in found.items()},
            "turn_separation": separation(found["turn_related"], found["turn_unrelated"]),
            "question_separation": separation(found["question_evidence"],
                                              found["question_other"]),
        }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
