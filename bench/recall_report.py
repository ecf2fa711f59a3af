"""The recall benchmark's figures: per-question values summed up by category, and the tables.

A run's JSON keeps every question's values (`per_question`), so that two runs can be compared
question by question later (`bench/locomo.py --compare`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bench.bootstrap import paired_bootstrap, paired_values
from bench.memory_sets import MemorySet, Question
from bench.recall_metrics import METRICS

Values = Mapping[str, Mapping[str, float | None]]  # question id -> metric -> value
LABELS = {
    "recall@5": "turn recall@5 (context)", "recall@k": "turn recall@{k} (context)",
    "turn_hit@1": "turn Hit@1 (ranking)", "turn_hit@5": "turn Hit@5 (ranking)",
    "session_any@1": "session recall_any@1 (Hit@1)", "session_any@5": "session recall_any@5",
    "session_any@10": "session recall_any@10", "session_all@5": "session recall_all@5",
    "session_mrr": "session MRR", "context5_session": "context of 5 touches answer session",
}
OVERALL = "overall (1-4)"


def label(metric: str, k: int) -> str:
    return LABELS[metric].format(k=k)


def mean_of(values: Values, ids: Iterable[str], metric: str) -> tuple[float | None, int]:
    found = [v for q in ids if (v := values[q][metric]) is not None]
    return (sum(found) / len(found) if found else None), len(found)


def groups(questions: Sequence[Question]) -> dict[str, list[str]]:
    """Question ids by the set's own category, in category order, then the headline
    (categories 1-4). Category 5 (adversarial, abstention) is named "(apart)": never in the
    headline."""
    by_kind: dict[str, list[str]] = {}
    for q in sorted(questions, key=lambda q: (q.category, q.kind)):
        name = q.kind if q.headline else f"{q.kind} (apart)"
        by_kind.setdefault(name, []).append(q.question_id)
    by_kind[OVERALL] = [q.question_id for q in questions if q.headline]
    return by_kind


def summarise(questions: Sequence[Question], values: Values) -> dict[str, dict[str, Any]]:
    summary: dict[str, dict[str, Any]] = {}
    for name, ids in groups(questions).items():
        row: dict[str, Any] = {"questions": len(ids)}
        for metric in METRICS:
            mean, count = mean_of(values, ids, metric)
            row[metric] = None if mean is None else round(mean, 4)
            row[f"n:{metric}"] = count
        summary[name] = row
    return summary


def table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """Plain text columns: the first left-aligned, the others right-aligned."""
    rows = [list(header), *(list(r) for r in rows)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    return "\n".join(
        "  ".join(
            cell.ljust(width) if i == 0 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        )
        for row in rows
    )


def fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def recall_table(result: Mapping[str, Any]) -> str:
    """Turn recall@5 and @k of the context path by category, every system side by side."""
    k = result["run"]["k"]
    systems = result["run"]["systems"]
    header = ["set / category", "n"] + [f"{s} @{d}" for s in systems for d in (5, k)]
    rows = []
    for name, memory_set in result["sets"].items():
        summaries = [memory_set["systems"][s]["summary"] for s in systems]
        for group, first in summaries[0].items():
            cells = [f"{name} {group}", str(first["n:recall@5"])]
            for summary in summaries:
                cells += [fmt(summary[group]["recall@5"]), fmt(summary[group]["recall@k"])]
            rows.append(cells)
    return table(header, rows)


SESSION_COLUMNS = (("session_any@1", "R@1"), ("session_any@5", "R@5"),
                   ("context5_session", "ctx5"))


def session_table(result: Mapping[str, Any]) -> str:
    """Session recall_any@1, @5 and the context of 5 by category, every system side by side
    (LongMemEval's preference and temporal questions apart, as the field reports them)."""
    systems = result["run"]["systems"]
    header = ["set / category", "n"] + [
        f"{s} {short}" for s in systems for _, short in SESSION_COLUMNS
    ]
    rows = []
    for name, memory_set in result["sets"].items():
        summaries = [memory_set["systems"][s]["summary"] for s in systems]
        for group, first in summaries[0].items():
            cells = [f"{name} {group}", str(first["n:session_any@1"])]
            for summary in summaries:
                cells += [fmt(summary[group][metric]) for metric, _ in SESSION_COLUMNS]
            rows.append(cells)
    return table(header, rows)


def baseline_table(result: Mapping[str, Any], name: str, system: str) -> str:
    """Every metric of one set (categories 1-4): memlane, BM25 and their paired difference."""
    memory_set = result["sets"][name]
    k = result["run"]["k"]
    mine = memory_set["systems"][system]
    base = memory_set["systems"]["bm25"]
    ids = set(memory_set["headline_ids"])
    rows = []
    for metric in METRICS:
        before = {q: v[metric] for q, v in base["per_question"].items() if q in ids}
        after = {q: v[metric] for q, v in mine["per_question"].items() if q in ids}
        diff = paired_bootstrap(*paired_values(before, after))
        rows.append([
            label(metric, k), str(diff.questions), fmt(mine["summary"][OVERALL][metric]),
            fmt(base["summary"][OVERALL][metric]), interval(diff.delta, diff.low, diff.high),
        ])
    header = [f"{name} (1-4)", "n", system, "bm25", f"{system} - bm25 [95 % CI]"]
    return table(header, rows)


def interval(delta: float, low: float, high: float) -> str:
    mark = " *" if low > 0 or high < 0 else ""
    return f"{delta:+.3f} [{low:+.3f}, {high:+.3f}]{mark}"


def compare_tables(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """Per set, system and metric (categories 1-4): before, after, after - before [95 % CI].
    Only questions both runs scored are paired; a different sample hash is said."""
    blocks = []
    k = after["run"]["k"]
    for name, new in after["sets"].items():
        old = before["sets"].get(name)
        if old is None:
            continue
        note = "" if old["id_hash"] == new["id_hash"] else (
            f"  (samples differ: {old['id_hash']} -> {new['id_hash']}; shared questions only)"
        )
        ids = set(new["headline_ids"]) & set(old["headline_ids"])
        rows = []
        # The baseline last: the rows that move come first.
        for system in sorted(new["systems"], key=lambda s: s == "bm25"):
            mine, theirs = new["systems"][system], old["systems"].get(system)
            if theirs is None:
                continue
            for metric in METRICS:
                a = {q: v[metric] for q, v in theirs["per_question"].items() if q in ids}
                b = {q: v[metric] for q, v in mine["per_question"].items() if q in ids}
                first, second = paired_values(a, b)
                diff = paired_bootstrap(first, second)
                rows.append([
                    f"{system} {label(metric, k)}", str(diff.questions),
                    fmt(sum(first) / len(first) if first else None),
                    fmt(sum(second) / len(second) if second else None),
                    interval(diff.delta, diff.low, diff.high),
                ])
        header = [f"{name} (1-4){note}", "n", "before", "after", "after - before [95 % CI]"]
        blocks.append(table(header, rows))
    return "\n\n".join(blocks)


def set_record(memory_set: MemorySet) -> dict[str, Any]:
    questions = memory_set.questions
    return {
        "questions": len(questions),
        "id_hash": memory_set.id_hash(),
        "conversations": len(memory_set.conversations),
        "turns": sum(len(c.turns) for c in memory_set.conversations),
        "headline_ids": [q.question_id for q in questions if q.headline],
        "systems": {},
    }
