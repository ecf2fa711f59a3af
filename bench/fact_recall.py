"""Recall of relation questions ("What is my job?") with facts joining retrieval, as JSON.

    .venv/bin/python bench/fact_recall.py [--distractors N] [--json]

For each labelled question of bench/data/relation_questions.jsonl that asks about relations,
one user gets an answer: a labelled sentence of bench/data/facts_labelled.jsonl in the
question's language stating one of those relations (not negated; a different sentence for
each question where there are enough), and N (30) distractors: labelled sentences stating
none of them. The question then goes through `retrieve_context` (limit 5) and `search`
(limit 5) of two services over one database, one with facts and one without (each its own
users); a hit is the answer's memory among the results. Embedded defaults (PostgreSQL,
ONNX, encryption, graph on).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memlane.container import Container
from memlane.domain.model import DEFAULT_TENANT, NewMemory, Owner
from memlane.settings import load_settings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.fact_writes import services

DATA = Path(__file__).resolve().parent / "data"
SEED = 13
LIMIT = 5


def load(name: str) -> list[dict[str, Any]]:
    text = (DATA / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def cases(distractors: int) -> list[tuple[str, str, list[str]]]:
    """(question, answer sentence, distractor sentences) per answerable question."""
    sentences = load("facts_labelled.jsonl")
    chance = random.Random(SEED)
    used: set[str] = set()
    found = []
    for question in load("relation_questions.jsonl"):
        asked = set(question["relations"])
        if not asked:
            continue
        answers = [
            s["text"] for s in sentences
            if s["lang"] == question["lang"]
            # The user's own fact: "my husband works as a carpenter" answers no "Where do I work?"
            and any(f["relation"] in asked and not f.get("negated") and not f.get("subject")
                    for f in s["facts"])
        ]
        if not answers:
            continue
        fresh = [a for a in answers if a not in used] or answers
        answer = chance.choice(fresh)
        used.add(answer)
        others = [s["text"] for s in sentences
                  if not any(f["relation"] in asked for f in s["facts"])]
        found.append((question["text"], answer, chance.sample(others, distractors)))
    return found


async def run(distractors: int, workdir: Path) -> dict[str, Any]:
    settings = load_settings(
        database={"data_dir": str(workdir / "pgdata"), "url": ""},
        memory={"encryption_key_path": str(workdir / "bench.key")},
        worker={"enabled": False},
    )
    container = Container(settings=settings)
    hits = {"on_context": 0, "off_context": 0, "on_search": 0, "off_search": 0}
    misses: list[str] = []
    try:
        on, off = await services(container)
        chosen = cases(distractors)
        for index, (question, answer, others) in enumerate(chosen):
            for name, service in (("on", on), ("off", off)):
                owner = Owner(DEFAULT_TENANT, f"{name}-{index}")
                results = await service.remember_many(
                    owner, [NewMemory(content=t) for t in [*others, answer]]
                )
                target = results[-1].memory.id
                context = await service.retrieve_context(owner, question, LIMIT)
                found = await service.search(owner, question, limit=LIMIT)
                hits[f"{name}_context"] += target in {m.id for m in context}
                hits[f"{name}_search"] += target in {h.memory.id for h in found}
                if name == "on" and target not in {m.id for m in context}:
                    misses.append(question)
    finally:
        await container.shutdown_resources()  # type: ignore[misc]
    total = len(chosen)
    return {
        "questions": total,
        "distractors": distractors,
        f"context_recall@{LIMIT}": {
            "facts_on": round(hits["on_context"] / total, 3),
            "facts_off": round(hits["off_context"] / total, 3),
        },
        f"search_recall@{LIMIT}": {
            "facts_on": round(hits["on_search"] / total, 3),
            "facts_off": round(hits["off_search"] / total, 3),
        },
        "missed_with_facts": misses,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--distractors", type=int, default=30)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="memlane-fact-recall-"))
    try:
        result = asyncio.run(run(args.distractors, workdir))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
