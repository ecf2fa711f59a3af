"""Supersession benchmark: hand-labelled EN/DE scenarios through the detector, real embeddings.

    .venv/bin/python bench/supersession.py [--data FILE] [--band LOW HIGH] [--no-facts] [--sweep]
                                           [--model NAME] [--errors [all]] [--learned]
                                           [--json]

Each scenario (bench/data/supersession_scenarios.jsonl) has 2-6 older statements (oldest
first), a new one, and the index of the statement it supersedes (or null). Texts are
embedded with the onnx adapter (`--model`: all-MiniLM-L6-v2, the adapter's own default,
on which docs/supersession.md's figures were measured, or another model it ships); every
older statement is a candidate with its cosine to the new one and the time it was said (an
hour apart, in order), as the write path hands them to the judge.
A positive counts as detected when the detector names the labelled statement first; it is
wrong when it fires on a negative or names another statement. Rates: detected / positives,
wrong / scenarios. Every figure is given for the tuning half and the test half
(bench/halves.py); `--sweep` chooses the band on the tuning half only. `--errors` lists the
tuning half's misses and wrongs (the test half's stay unread while rules are tuned). Fact
conflicts from the extractor are added as the service adds them (`--no-facts` leaves them
out). `--learned` adds the learned judge with the shipped weights
(src/adapters/supersession/judge_weights.json, trained by bench/supersession_judge.py on the
tuning half) where the rules find nothing. bench/supersession_routes.py runs the same
scenarios through the real service, both write routes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import UUID

import numpy as np

from halves import HALVES, TUNE, by_group, gap_points, in_half
from memlane.adapters.embedding.catalog import ONNX_MODELS
from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.domain.graph.supersession import DEFAULT_BAND, Candidate, judge_supersession
from memlane.domain.graph.supersession_learned import LearnedJudge

DATA = Path(__file__).resolve().parent / "data" / "supersession_scenarios.jsonl"
MERGE_THRESHOLD = 0.85
FLOORS = (0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50, 0.55, 0.60, 0.65, 0.70,
          0.75, 0.78, 0.80, 0.82, 0.85)
CEILINGS = (MERGE_THRESHOLD, 1.0)
# Calibration objective: a wrong supersession hides a true memory, a miss only keeps a stale
# one visible, so one wrong costs as much as five misses.
WRONG_COST = 5
NOW = datetime(2025, 6, 11, 10, tzinfo=UTC)
Conflicts = Callable[[str, Sequence[tuple[UUID, str]]], frozenset[UUID]]
Picks = dict[str, tuple[int | None, str | None]]


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


Cosines = dict[str, list[list[float]]]


async def cosines(scenarios: Sequence[Mapping[str, Any]], model: str | None = None) -> Cosines:
    """Per scenario, the cosines among its statements (older ones first, the new one last)."""
    texts = sorted({t for s in scenarios for t in (s["new"], *s["history"])})
    adapter = OnnxEmbeddingAdapter() if model is None else OnnxEmbeddingAdapter(ONNX_MODELS[model])
    await adapter.warm_up()
    try:
        vectors = dict(zip(texts, np.asarray(await adapter.embed(texts)), strict=True))
    finally:
        await adapter.close()
    said = {s["id"]: [*s["history"], s["new"]] for s in scenarios}
    return {key: [[float(vectors[a] @ vectors[b]) for b in texts_] for a in texts_]
            for key, texts_ in said.items()}


def said_at(index: int) -> datetime:
    """When the index-th older statement was said (the new one comes a day after the last)."""
    return NOW - timedelta(hours=30 - index)


def _judge(texts: Sequence[str], matrix: Sequence[Sequence[float]], at: int,
           band: tuple[float, float], conflicts: Conflicts | None,
           replaced: set[UUID], learned: LearnedJudge | None = None) -> list[Any]:
    """What the at-th statement replaces among those said before it, as the write path
    judges it: each candidate with its cosine and when it was said, the replaced ones known."""
    ids = [UUID(int=i + 1) for i in range(at)]
    facts = conflicts(texts[at], list(zip(ids, texts[:at], strict=True))) if conflicts else (
        frozenset())
    return judge_supersession(
        texts[at],
        [Candidate(ids[i], texts[i], matrix[at][i], said_at(i)) for i in range(at)],
        band=band, fact_conflicts=facts, replaced=frozenset(replaced), said_at=said_at(at),
        learned=learned,
    )


def judge_all(
    scenarios: Sequence[Mapping[str, Any]], cos: Cosines,
    band: tuple[float, float], conflicts: Conflicts | None, learned: LearnedJudge | None = None,
) -> Picks:
    """Per scenario: the index the detector picked (None: no supersession) and its kind. The
    older statements are judged first, one after another, as they were written."""
    picks: Picks = {}
    for s in scenarios:
        texts = [*s["history"], s["new"]]
        replaced: set[UUID] = set()
        for at in range(1, len(s["history"])):
            replaced |= {d.replaces for d in _judge(texts, cos[s["id"]], at, band, conflicts,
                                                    replaced, learned)}
        decisions = _judge(texts, cos[s["id"]], len(s["history"]), band, conflicts, replaced,
                           learned)
        picks[s["id"]] = (decisions[0].replaces.int - 1, decisions[0].kind) if decisions else (
            None, None)
    return picks


def score(scenarios: Sequence[Mapping[str, Any]], picks: Picks) -> dict[str, Any]:
    positives = [s for s in scenarios if s["supersedes"] is not None]
    detected = [s for s in positives if picks[s["id"]][0] == s["supersedes"]]
    wrong_target = [s for s in positives if picks[s["id"]][0] not in (None, s["supersedes"])]
    wrong_negative = [s for s in scenarios if s["supersedes"] is None and picks[s["id"]][0]
                      is not None]
    wrong = len(wrong_target) + len(wrong_negative)
    return {
        "scenarios": len(scenarios), "positives": len(positives),
        "detected": len(detected), "wrong": wrong,
        "detected_rate": round(len(detected) / max(len(positives), 1), 4),
        "wrong_rate": round(wrong / max(len(scenarios), 1), 4),
        "kind_agreement": round(
            sum(picks[s["id"]][1] == s["kind"] for s in detected) / max(len(detected), 1), 4),
        "missed_ids": [s["id"] for s in positives if picks[s["id"]][0] is None],
        "wrong_ids": [s["id"] for s in (*wrong_target, *wrong_negative)],
    }


def _figures(part: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in part.items() if not k.endswith("_ids")}


def report(scenarios: Sequence[Mapping[str, Any]], picks: Picks) -> dict[str, Any]:
    """Figures per half, per half and language, per half and family; the gap between halves."""
    result: dict[str, Any] = {"all": _figures(score(scenarios, picks))}
    for half in HALVES:
        part = in_half(scenarios, half)
        result[half] = _figures(score(part, picks))
        result[half]["by_lang"] = {
            lang: _figures(score(rows, picks))
            for lang, rows in by_group(part, lambda s: s["lang"]).items()
        }
        result[half]["by_family"] = {
            family: {k: v for k, v in score(rows, picks).items()
                     if k in ("detected", "positives", "wrong", "scenarios")}
            for family, rows in by_group(part, lambda s: s["category"]).items()
        }
    result["gap_points"] = {
        key: gap_points(result["tune"][key], result["test"][key])
        for key in ("detected_rate", "wrong_rate")
    }
    return result


def errors(scenarios: Sequence[Mapping[str, Any]], picks: Picks, half: str = TUNE) -> list[str]:
    """One half's misses and wrongs, one line each (by default the tuning half: the test half
    is not listed; `all` only for a set already declared read, such as a run blind set)."""
    lines = []
    for s in in_half(scenarios, half):
        got, want = picks[s["id"]][0], s["supersedes"]
        if got != want:
            what = "miss " if got is None else "wrong"
            named = "-" if got is None else s["history"][got]
            lines.append(f"{what} {s['id']}: {s['new']!r} -> {named!r} (want "
                         f"{'-' if want is None else repr(s['history'][want])})")
    return lines


def sweep(scenarios: Sequence[Mapping[str, Any]], cos: Cosines,
          conflicts: Conflicts | None) -> dict[str, Any]:
    """Detection and wrongs per band; the band is chosen on the tuning half only."""
    rows = []
    for high in CEILINGS:
        for low in FLOORS:
            picks = judge_all(scenarios, cos, (low, high), conflicts)
            row: dict[str, Any] = {"band": [low, high]}
            for half in HALVES:
                part = score(in_half(scenarios, half), picks)
                row[half] = {k: part[k] for k in ("detected_rate", "wrong_rate", "detected",
                                                  "wrong")}
            rows.append(row)
    # Best objective on the tuning half; among ties the highest floor (least reliance on the
    # word rules against a real store's unrelated neighbours).
    best = max(rows, key=lambda r: (r[TUNE]["detected"] - WRONG_COST * r[TUNE]["wrong"],
                                    r["band"][1], r["band"][0]))
    return {"objective": f"tune detected - {WRONG_COST} x tune wrong", "chosen": best["band"],
            "rows": rows}


def target_cosines(scenarios: Sequence[Mapping[str, Any]], cos: Cosines) -> dict[str, Any]:
    target = sorted(cos[s["id"]][-1][s["supersedes"]] for s in scenarios
                    if s["supersedes"] is not None)
    other = sorted(c for s in scenarios for i, c in enumerate(cos[s["id"]][-1][:-1])
                   if i != s["supersedes"])

    def quantiles(values: list[float]) -> dict[str, float]:
        cuts = statistics.quantiles(values, n=20)
        return {"min": round(values[0], 3), "p5": round(cuts[0], 3), "p10": round(cuts[1], 3),
                "p50": round(statistics.median(values), 3), "p90": round(cuts[-2], 3),
                "max": round(values[-1], 3)}

    return {"superseded": quantiles(target), "other_older": quantiles(other),
            "superseded_above_merge_threshold": sum(c > MERGE_THRESHOLD for c in target)}


def fact_conflicts_from_patterns() -> Conflicts:
    """Fact conflicts as the write path finds them: a functional fact of the new statement
    with another object than an older statement's."""
    from memlane.domain.facts.extraction import extract_facts
    from memlane.domain.facts.model import FUNCTIONAL_RELATIONS, normalise

    def functional(text: str) -> list[Any]:
        return [f for f in extract_facts(text) if f.relation in FUNCTIONAL_RELATIONS
                and not f.negated]

    def conflicts(new_text: str, olds: Sequence[tuple[UUID, str]]) -> frozenset[UUID]:
        news = functional(new_text)
        return frozenset(
            memory_id for memory_id, text in olds for old in functional(text) for new in news
            if new.relation == old.relation and normalise(new.subject) == normalise(old.subject)
            and normalise(new.object) != normalise(old.object)
        )

    return conflicts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA, help="scenarios, JSON lines")
    parser.add_argument("--band", type=float, nargs=2, metavar=("LOW", "HIGH"),
                        default=list(DEFAULT_BAND), help="cosine band of the replaced memory")
    parser.add_argument("--model", help="embedding model (default: the adapter's default)")
    parser.add_argument("--no-facts", action="store_true",
                        help="leave out fact conflicts (the service finds them when facts are on)")
    parser.add_argument("--sweep", action="store_true", help="also sweep band floors/ceilings")
    parser.add_argument("--errors", nargs="?", const=TUNE, choices=(TUNE, "all"),
                        help="list the tuning half's errors (`all`: every row, for a set "
                             "declared read)")
    parser.add_argument("--learned", action="store_true",
                        help="the learned judge (shipped weights) where the rules find nothing")
    parser.add_argument("--json", action="store_true", help="one compact JSON object")
    args = parser.parse_args(argv)
    scenarios = load(args.data)
    cos = asyncio.run(cosines(scenarios, args.model))
    conflicts = None if args.no_facts else fact_conflicts_from_patterns()
    band = (args.band[0], args.band[1])
    learned = None
    if args.learned:
        from memlane.adapters.supersession.weights import shipped_judge
        learned = shipped_judge()
    picks = judge_all(scenarios, cos, band, conflicts, learned)
    result: dict[str, Any] = {
        "band": list(band), "model": args.model or "default",
        "judge": "rules + learned" if learned else "rules",
        "facts": "used" if conflicts else "off",
        **report(scenarios, picks), "cosines": target_cosines(scenarios, cos),
    }
    if args.sweep:
        result["sweep"] = sweep(scenarios, cos, conflicts)
    if args.errors:
        print("\n".join(errors(scenarios, picks, args.errors)))
    print(json.dumps(result, ensure_ascii=False, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
