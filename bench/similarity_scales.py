"""Calibrate every cosine constant of another embedding model against all-MiniLM-L6-v2's.

    .venv/bin/python bench/similarity_scales.py --data locomo-dev.json
        [--models all-MiniLM-L6-v2,multilingual-e5-small] [--seed 7] [--json]

Each constant of `domain/similarity.py` compares a cosine with a line that was set for
all-MiniLM-L6-v2. Another model's cosines live on another scale (multilingual-e5-small's in a
narrow band near 0.8), so a line is carried over by where it sits among the pairs it
separates, measured on the same pairs under both models:

- rag_threshold: the quantile MiniLM's 0.25 takes among "question - a turn of its
  conversation that is not its evidence" pairs (LoCoMo development split);
- semantic_threshold: the quantile of MiniLM's 0.35 among turn pairs of one conversation
  (two evidence turns of one question, and as many random pairs sharing no question);
- merge_threshold: the quantile of MiniLM's 0.85 among the hand-written supersession
  scenarios' pairs (bench/data/supersession_scenarios.jsonl, EN and DE: a new statement with
  each memory of its history: the one it replaces, same topic, and the others);
- active_context: the same place between "a turn and the same words dated another day"
  (what the proxy's active context is against a stored segment) and "two evidence turns of
  one question" (the same topic): MiniLM's 0.85 as a share of the way from the topic pairs'
  p90 to the restatements' p10;
- relevance_similarity: MiniLM's 0.5 times the ratio of the two models' spreads between a
  question's evidence and its other turns (medians): the similarity term then moves the
  relevance as much for the same difference in meaning.

Turns are embedded as the conversation route stores them ("08 May 2023. Caroline: …") and
read from the bench's embedding cache when it holds them (bench/embedding_cache.py).
Prints one JSON object per model: the pair distributions and each constant carried over.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.centring import centring_of
from bench.embedding_cache import CachingEmbedder, EmbeddingCacheStore
from bench.locomo import DEFAULT_CACHE
from bench.memory_sets import MemorySet, Turn, load_set

from memlane.adapters.embedding.catalog import MINILM, ONNX_MODELS
from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.domain.similarity import scale_of

SCENARIOS = Path(__file__).resolve().parent / "data" / "supersession_scenarios.jsonl"
REFERENCE = MINILM.name


def stored_text(turn: Turn, shift_days: int = 0) -> str:
    when = turn.created_at + timedelta(days=shift_days)
    return f"{when:%d %B %Y}. {turn.speaker}: {turn.text.strip()}"


def pairs(memory_set: MemorySet, seed: int) -> dict[str, list[tuple[str, str, str]]]:
    """(kind of embedding of the first text, first, second) per kind of pair."""
    rng = random.Random(seed)
    found: dict[str, list[tuple[str, str, str]]] = {
        "question_other": [], "turn_related": [], "turn_unrelated": [], "restated": [],
        "question_evidence": []}
    for conversation in memory_set.conversations:
        by_id = {t.turn_id: t for t in conversation.turns}
        related: set[tuple[str, str]] = set()
        for question in conversation.questions:
            evidence = sorted(question.evidence)
            others = [t for t in by_id if t not in question.evidence]
            for turn in evidence:
                found["question_evidence"].append(
                    ("query", question.text, stored_text(by_id[turn])))
                found["question_other"].append(
                    ("query", question.text, stored_text(by_id[rng.choice(others)])))
            related.update((a, b) for i, a in enumerate(evidence) for b in evidence[i + 1:])
        ids = list(by_id)
        unrelated: set[tuple[str, str]] = set()
        while len(unrelated) < len(related):
            a, b = sorted(rng.sample(ids, 2))
            if (a, b) not in related:
                unrelated.add((a, b))
        for kind, chosen in (("turn_related", related), ("turn_unrelated", unrelated)):
            found[kind] += [("document", stored_text(by_id[a]), stored_text(by_id[b]))
                            for a, b in sorted(chosen)]
        for turn_id in rng.sample(ids, min(200, len(ids))):
            turn = by_id[turn_id]
            found["restated"].append(
                ("document", stored_text(turn), stored_text(turn, rng.randint(1, 60))))
    return found


def scenario_pairs() -> dict[str, list[tuple[str, str, str]]]:
    replaced, other = [], []
    for line in SCENARIOS.read_text(encoding="utf-8").splitlines():
        scenario = json.loads(line)
        for at, old in enumerate(scenario["history"]):
            (replaced if at == scenario.get("supersedes") else other).append(
                ("document", scenario["new"], old))
    return {"scenario_replaced": replaced, "scenario_other": other}


async def cosines(model: str, found: dict[str, list[tuple[str, str, str]]],
                  cache: EmbeddingCacheStore | None) -> dict[str, np.ndarray]:
    inner = OnnxEmbeddingAdapter(ONNX_MODELS[model])
    embedder = inner if cache is None else CachingEmbedder(inner, cache)
    try:
        centre = await centring_of(inner, model)
        result = {}
        for kind, items in found.items():
            firsts = [a for _, a, _ in items]
            seconds = [b for _, _, b in items]
            first_kind = items[0][0] if items else "document"
            left = np.asarray(await embedder.embed(firsts, first_kind))
            if first_kind == "query":  # compared as the service compares a question
                left = centre(left)
            right = np.asarray(await embedder.embed(seconds, "document"))
            result[kind] = np.einsum("ij,ij->i", left, right)
        return result
    finally:
        await embedder.close()


def quantile_of(values: np.ndarray, line: float) -> float:
    return float(np.mean(values < line))


def carried(reference: dict[str, np.ndarray], other: dict[str, np.ndarray]) -> dict[str, Any]:
    """Each MiniLM line moved to the same place among the other model's pairs."""
    base = scale_of(REFERENCE)
    out: dict[str, Any] = {}
    q = quantile_of(reference["question_other"], base.rag_threshold)
    out["rag_threshold"] = {"quantile": round(q, 3),
                            "value": round(float(np.quantile(other["question_other"], q)), 3)}
    turns_ref = np.concatenate([reference["turn_related"], reference["turn_unrelated"]])
    turns_other = np.concatenate([other["turn_related"], other["turn_unrelated"]])
    q = quantile_of(turns_ref, base.semantic_threshold)
    out["semantic_threshold"] = {"quantile": round(q, 3),
                                 "value": round(float(np.quantile(turns_other, q)), 3)}
    scen_ref = np.concatenate([reference["scenario_replaced"], reference["scenario_other"]])
    scen_other = np.concatenate([other["scenario_replaced"], other["scenario_other"]])
    q = quantile_of(scen_ref, base.merge_threshold)
    out["merge_threshold"] = {"quantile": round(q, 3),
                              "value": round(float(np.quantile(scen_other, q)), 3)}
    for name, lo_hi in (("supersession_low", base.supersession_band[0]),):
        q = quantile_of(reference["scenario_replaced"], lo_hi)
        out[name] = {"quantile_of_replaced": round(q, 3),
                     "value": round(float(np.quantile(other["scenario_replaced"], q)), 3)}

    def between(values: dict[str, np.ndarray]) -> tuple[float, float]:
        return (float(np.quantile(values["turn_related"], 0.9)),
                float(np.quantile(values["restated"], 0.1)))

    lo, hi = between(reference)
    share = (base.active_context - lo) / (hi - lo)
    lo2, hi2 = between(other)
    out["active_context"] = {"share_of_the_way": round(share, 3),
                             "value": round(lo2 + share * (hi2 - lo2), 3)}

    def spread(values: dict[str, np.ndarray]) -> float:
        return float(np.median(values["question_evidence"]) - np.median(values["question_other"]))

    out["relevance_similarity"] = {
        "spread_ratio": round(spread(reference) / spread(other), 3),
        "value": round(base.relevance_similarity * spread(reference) / spread(other), 3)}
    return out


def described(values: np.ndarray) -> dict[str, Any]:
    return {"n": int(values.size),
            "p10_p50_p90": [round(float(np.quantile(values, p)), 3) for p in (0.1, 0.5, 0.9)]}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="LoCoMo-shaped JSON file")
    parser.add_argument("--models", default=",".join(ONNX_MODELS))
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-embedding-cache", action="store_true")
    args = parser.parse_args(argv)
    found = {**pairs(load_set(args.data), args.seed), **scenario_pairs()}
    cache = None if args.no_embedding_cache else EmbeddingCacheStore(DEFAULT_CACHE)
    models = args.models.split(",")
    if REFERENCE not in models:
        models.insert(0, REFERENCE)
    measured = {m: asyncio.run(cosines(m, found, cache)) for m in models}
    result: dict[str, Any] = {"reference": REFERENCE, "models": {}}
    for model in models:
        result["models"][model] = {
            "pairs": {kind: described(values) for kind, values in measured[model].items()},
            "carried_over": carried(measured[REFERENCE], measured[model]),
        }
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
