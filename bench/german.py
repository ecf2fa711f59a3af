"""German and mixed-language recall: each local model on a hand-labelled set, through the service.

    .venv/bin/python bench/german.py [--models all-MiniLM-L6-v2,multilingual-e5-small]
        [--data bench/data/german_recall.jsonl] [--json]

The set (bench/data/german_recall.jsonl, written for issue 29 before any run) holds two users'
memories, German facts among English ones, each with near-miss distractors (same topic,
another fact: the user's job and their sister's, their birthday and their mother's), and 34
questions: German questions about German facts, German questions about English facts and
the reverse, and a few English ones. A fixed hash of the question id splits them into a
tuning half and a test half (the first byte of its sha256 even: tuning).

Per model, one fresh store on the embedded defaults (encryption on, graph and facts as
configured, the model's own cosine lines), each user's memories stored with `remember_many`
(POST /v1/memories), then per question `search` (GET /v1/memories/search) and
`retrieve_context` with limit 5 (POST /v1/context). Prints per model and half: top-1 (the
search's first memory answers), the context's first memory answers, the answer among the
five, by kind of question (question language - memory language) too.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import shutil
import sys
import tempfile
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memlane.container import open_memlane
from memlane.domain.model import DEFAULT_TENANT, NewMemory, Owner
from memlane.settings import load_settings

DATA = Path(__file__).resolve().parent / "data" / "german_recall.jsonl"
MODELS = ("all-MiniLM-L6-v2", "multilingual-e5-small")


def half(question_id: str) -> str:
    return "tuning" if hashlib.sha256(question_id.encode()).digest()[0] % 2 == 0 else "test"


def read(path: Path) -> tuple[dict[str, list[dict[str, str]]], list[dict[str, str]]]:
    users: dict[str, list[dict[str, str]]] = {}
    questions: list[dict[str, str]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        if "memories" in item:
            users[item["user"]] = item["memories"]
        else:
            questions.append(item)
    return users, questions


async def answers(
    model: str, users: dict[str, list[dict[str, str]]], questions: Sequence[dict[str, str]]
) -> list[dict[str, Any]]:
    work = Path(tempfile.mkdtemp(prefix="memlane-german-"))
    try:
        settings = load_settings(
            database={"data_dir": str(work / "pgdata"), "url": ""},
            memory={"encryption_key_path": str(work / "key"), "embedding": {"model": model}},
            worker={"enabled": False},
        )
        async with open_memlane(settings) as memlane:
            service = memlane.service
            ids: dict[str, dict[str, str]] = {}
            for user, memories in users.items():
                owner = Owner(DEFAULT_TENANT, user)
                stored = await service.remember_many(
                    owner, [NewMemory(content=m["text"]) for m in memories]
                )
                ids[user] = {
                    str(r.memory.id): m["id"] for r, m in zip(stored, memories, strict=True)
                }
            found = []
            for q in questions:
                owner = Owner(DEFAULT_TENANT, q["user"])
                ranked = [
                    ids[q["user"]].get(str(h.memory.id))
                    for h in await service.search(owner, q["question"], limit=5)
                ]
                context = [
                    ids[q["user"]].get(str(m.id))
                    for m in await service.retrieve_context(owner, q["question"], 5)
                ]
                found.append(
                    {
                        "id": q["id"],
                        "half": half(q["id"]),
                        "kind": q["kind"],
                        "top1": ranked[:1] == [q["answer"]],
                        "context_first": context[:1] == [q["answer"]],
                        "context5": q["answer"] in context,
                        "first": ranked[0] if ranked else None,
                    }
                )
            return found
    finally:
        shutil.rmtree(work, ignore_errors=True)


def summary(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    def rates(group: Sequence[dict[str, Any]]) -> dict[str, float | int]:
        return {
            "n": len(group),
            **{
                m: round(sum(r[m] for r in group) / len(group), 3)
                for m in ("top1", "context_first", "context5")
            },
        }

    out: dict[str, Any] = {}
    for name in ("tuning", "test"):
        chosen = [r for r in rows if r["half"] == name]
        kinds: defaultdict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in chosen:
            kinds[r["kind"]].append(r)
        out[name] = {**rates(chosen), "by_kind": {k: rates(v) for k, v in sorted(kinds.items())}}
    out["all"] = rates(rows)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--json", action="store_true", help="every question's values too")
    args = parser.parse_args(argv)
    users, questions = read(args.data)
    result: dict[str, Any] = {"questions": len(questions), "models": {}}
    for model in args.models.split(","):
        rows = asyncio.run(answers(model, users, questions))
        result["models"][model] = {
            "summary": summary(rows),
            **({"per_question": rows} if args.json else {}),
        }
    print(json.dumps(result, indent=None if args.json else 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
