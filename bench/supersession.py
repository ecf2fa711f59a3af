"""Supersession benchmark: hand-labelled EN/DE scenarios through the detector, real embeddings.

    .venv/bin/python bench/supersession.py [--data FILE] [--band LOW HIGH] [--facts] [--sweep]
                                           [--json]

Each scenario (bench/data/supersession_scenarios.jsonl) has 2-6 older statements, a new one,
and the index of the statement it supersedes (or null). The texts are embedded with the
default ONNX all-MiniLM-L6-v2 adapter; every older statement is a candidate with its cosine
(dot product of the unit vectors) to the new one, as the write's neighbour probe gives them.
A positive counts as detected when the detector names the labelled statement first; it is
wrong when it fires on a negative or names another statement. Rates: detected / positives,
wrong / scenarios. `--facts` adds fact conflicts from memlane.domain.facts.extraction when that
module exists. `--sweep` reruns the judgement over band floors and ceilings (calibration).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any
from uuid import UUID

import numpy as np

from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.domain.graph.supersession import DEFAULT_BAND, judge_supersession

DATA = Path(__file__).resolve().parent / "data" / "supersession_scenarios.jsonl"
MERGE_THRESHOLD = 0.85
FLOORS = (0.20, 0.25, 0.30, 0.35, 0.38, 0.40, 0.42, 0.45, 0.50, 0.55, 0.60)
CEILINGS = (MERGE_THRESHOLD, 1.0)
# Calibration objective: a wrong supersession hides a true memory, a miss only keeps a stale
# one visible, so one wrong costs as much as five misses.
WRONG_COST = 5
Conflicts = Callable[[str, Sequence[tuple[UUID, str]]], frozenset[UUID]]


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


async def cosines(scenarios: Sequence[Mapping[str, Any]]) -> dict[str, list[float]]:
    """Per scenario, the cosine of the new statement to each older one."""
    texts = sorted({t for s in scenarios for t in (s["new"], *s["history"])})
    adapter = OnnxEmbeddingAdapter()
    await adapter.warm_up()
    try:
        vectors = dict(zip(texts, np.asarray(await adapter.embed(texts)), strict=True))
    finally:
        await adapter.close()
    return {
        s["id"]: [float(vectors[old] @ vectors[s["new"]]) for old in s["history"]]
        for s in scenarios
    }


def fact_conflicts_from_patterns() -> Conflicts | None:
    """Fact conflicts from the facts modules, or None when they are not there (yet)."""
    try:
        from memlane.domain.facts import extraction as fact_patterns, model as facts
    except ImportError:
        return None
    extract = getattr(fact_patterns, "extract_facts", None)
    functional = getattr(facts, "FUNCTIONAL_RELATIONS", None)
    if not callable(extract) or functional is None:
        return None

    def key(value: Any) -> str:
        return " ".join(str(value).casefold().split())

    def functional_facts(text: str) -> list[Any]:
        try:
            return [f for f in extract(text) if getattr(f, "relation", None) in functional]
        except Exception:  # a bench of the detector, not of the extractor: skip its failures
            return []

    def conflicts(new_text: str, olds: Sequence[tuple[UUID, str]]) -> frozenset[UUID]:
        new_facts = functional_facts(new_text)
        found = set()
        for memory_id, text in olds:
            for old in functional_facts(text):
                for new in new_facts:
                    same_subject = key(getattr(new, "subject", "")) == key(
                        getattr(old, "subject", ""))
                    if (new.relation == old.relation and same_subject
                            and key(new.object) != key(old.object)):
                        found.add(memory_id)
        return frozenset(found)

    return conflicts


def judge_all(
    scenarios: Sequence[Mapping[str, Any]], cos: Mapping[str, list[float]],
    band: tuple[float, float], conflicts: Conflicts | None,
) -> dict[str, tuple[int | None, str | None]]:
    """Per scenario: the index the detector picked (None: no supersession) and its kind."""
    picks: dict[str, tuple[int | None, str | None]] = {}
    for s in scenarios:
        ids = [UUID(int=i + 1) for i in range(len(s["history"]))]
        facts = conflicts(s["new"], list(zip(ids, s["history"], strict=True))) if conflicts else (
            frozenset())
        decisions = judge_supersession(
            s["new"], list(zip(ids, s["history"], cos[s["id"]], strict=True)), band=band,
            fact_conflicts=facts,
        )
        picks[s["id"]] = (ids.index(decisions[0].replaces), decisions[0].kind) if decisions else (
            None, None)
    return picks


def score(scenarios: Sequence[Mapping[str, Any]],
          picks: Mapping[str, tuple[int | None, str | None]]) -> dict[str, Any]:
    positives = [s for s in scenarios if s["supersedes"] is not None]
    detected = [s for s in positives if picks[s["id"]][0] == s["supersedes"]]
    wrong_target = [s for s in positives if picks[s["id"]][0] not in (None, s["supersedes"])]
    wrong_negative = [s for s in scenarios if s["supersedes"] is None and picks[s["id"]][0]
                      is not None]
    wrong = len(wrong_target) + len(wrong_negative)
    return {
        "scenarios": len(scenarios), "positives": len(positives),
        "negatives": len(scenarios) - len(positives), "detected": len(detected),
        "missed": len(positives) - len(detected) - len(wrong_target), "wrong": wrong,
        "wrong_on_negative": len(wrong_negative), "wrong_target": len(wrong_target),
        "detected_rate": round(len(detected) / max(len(positives), 1), 4),
        "wrong_rate": round(wrong / max(len(scenarios), 1), 4),
        "kind_agreement": round(
            sum(picks[s["id"]][1] == s["kind"] for s in detected) / max(len(detected), 1), 4),
        "missed_ids": [s["id"] for s in positives if picks[s["id"]][0] is None],
        "wrong_ids": [s["id"] for s in (*wrong_target, *wrong_negative)],
    }


def report(scenarios: Sequence[Mapping[str, Any]], cos: Mapping[str, list[float]],
           band: tuple[float, float], conflicts: Conflicts | None) -> dict[str, Any]:
    picks = judge_all(scenarios, cos, band, conflicts)
    result = score(scenarios, picks)
    for key in ("lang", "split"):
        values = sorted({s[key] for s in scenarios})
        result[f"by_{key}"] = {
            value: {k: v for k, v in score([s for s in scenarios if s[key] == value], picks)
                    .items() if not k.endswith("_ids")}
            for value in values
        }
    return result


def sweep(scenarios: Sequence[Mapping[str, Any]], cos: Mapping[str, list[float]],
          conflicts: Conflicts | None) -> dict[str, Any]:
    """Detection and wrongs per band; the floor is chosen on the dev split only."""
    rows = []
    for high in CEILINGS:
        for low in FLOORS:
            picks = judge_all(scenarios, cos, (low, high), conflicts)
            row: dict[str, Any] = {"band": [low, high]}
            for split in sorted({s["split"] for s in scenarios}):
                part = score([s for s in scenarios if s["split"] == split], picks)
                row[split] = {k: part[k] for k in ("detected_rate", "wrong_rate", "detected",
                                                   "wrong")}
            rows.append(row)
    # Best objective on dev; among ties the highest floor (least reliance on the word rules).
    best = max(rows, key=lambda r: (r["dev"]["detected"] - WRONG_COST * r["dev"]["wrong"],
                                    r["band"][1], r["band"][0]))
    return {"objective": f"dev detected - {WRONG_COST} x dev wrong", "chosen": best["band"],
            "rows": rows}


def target_cosines(scenarios: Sequence[Mapping[str, Any]],
                   cos: Mapping[str, list[float]]) -> dict[str, Any]:
    target = sorted(cos[s["id"]][s["supersedes"]] for s in scenarios
                    if s["supersedes"] is not None)
    other = sorted(c for s in scenarios for i, c in enumerate(cos[s["id"]])
                   if i != s["supersedes"])

    def quantiles(values: list[float]) -> dict[str, float]:
        cuts = statistics.quantiles(values, n=10)
        return {"min": round(values[0], 3), "p10": round(cuts[0], 3),
                "p50": round(statistics.median(values), 3), "p90": round(cuts[-1], 3),
                "max": round(values[-1], 3)}

    return {"superseded": quantiles(target), "other_older": quantiles(other),
            "superseded_above_merge_threshold": sum(c > MERGE_THRESHOLD for c in target)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA, help="scenarios, JSON lines")
    parser.add_argument("--band", type=float, nargs=2, metavar=("LOW", "HIGH"),
                        default=list(DEFAULT_BAND), help="cosine band of the replaced memory")
    parser.add_argument("--facts", action="store_true",
                        help="add fact conflicts from memlane.domain.facts.extraction if present")
    parser.add_argument("--sweep", action="store_true", help="also sweep band floors/ceilings")
    parser.add_argument("--json", action="store_true", help="one compact JSON object")
    args = parser.parse_args(argv)
    scenarios = load(args.data)
    cos = asyncio.run(cosines(scenarios))
    conflicts = fact_conflicts_from_patterns() if args.facts else None
    band = (args.band[0], args.band[1])
    result: dict[str, Any] = {
        "band": list(band),
        "facts": "used" if conflicts else ("unavailable" if args.facts else "off"),
        **report(scenarios, cos, band, conflicts),
        "cosines": target_cosines(scenarios, cos),
    }
    if args.sweep:
        result["sweep"] = sweep(scenarios, cos, conflicts)
    print(json.dumps(result, ensure_ascii=False, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
