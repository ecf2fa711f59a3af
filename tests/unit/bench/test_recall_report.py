"""The recall report: means by category, the headline without category 5, runs compared."""

from __future__ import annotations

from typing import Any

from bench.memory_sets import Question
from bench.recall_metrics import METRICS
from bench.recall_report import OVERALL, compare_tables, summarise


def question(qid: str, category: int, kind: str) -> Question:
    return Question(qid, "?", category, kind, frozenset({"D1:1"}), frozenset({1}))


QUESTIONS = [question("a", 1, "multi-hop"), question("b", 4, "single-hop"),
             question("c", 4, "single-hop"), question("d", 5, "adversarial")]


def values(**recall: float | None) -> dict[str, dict[str, float | None]]:
    return {q: {**dict.fromkeys(METRICS, 0.0), "recall@k": v} for q, v in recall.items()}


def test_the_headline_leaves_category_five_out_and_unscored_questions_too() -> None:
    summary = summarise(QUESTIONS, values(a=1.0, b=0.5, c=None, d=0.0))
    assert summary[OVERALL]["recall@k"] == 0.75
    assert summary[OVERALL]["n:recall@k"] == 2
    assert summary["single-hop"]["recall@k"] == 0.5
    assert summary["adversarial (apart)"]["recall@k"] == 0.0


def _run(**recall: float) -> dict[str, Any]:
    per_question = values(**recall)
    return {
        "run": {"k": 10},
        "sets": {"s": {"id_hash": "h", "headline_ids": ["a", "b", "c"],
                       "systems": {"memlane": {"per_question": per_question}}}},
    }


def test_a_comparison_pairs_questions_and_prints_the_difference() -> None:
    text = compare_tables(_run(a=0.0, b=0.0, c=1.0, d=1.0), _run(a=1.0, b=1.0, c=1.0, d=0.0))
    line = next(row for row in text.splitlines() if "turn recall@10" in row)
    # Category 5 ("d") is left out: +2/3 over a, b and c.
    assert "0.333" in line and "1.000" in line and "+0.667" in line
