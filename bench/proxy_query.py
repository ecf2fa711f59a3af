"""Which query finds a follow-up's memory: the last user message alone, or with the previous
turn (always, or when the last message is short), on a labelled set, as JSON.

    .venv/bin/python bench/proxy_query.py [--json]

bench/data/proxy_followups.jsonl holds 42 follow-up exchanges (28 English, 14 German): a
previous turn (user and assistant), the last user message, and the fact it needs; odd ids
are the tuning half, even ids the test half; 40 distractor statements join the facts. One
user per rule gets every fact and distractor (remember_many, embedded defaults: PostgreSQL,
ONNX, encryption, graph and facts on); each case asks through MemoryService.prompt_context,
the path the proxy and POST /v1/context take, with the proxy's active context (the previous
exchange). A hit is the fact among the memories the context holds. The rule is chosen on the
tuning half (ties to the simpler rule); the test half is reported beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memlane.container import Container
from memlane.domain.model import DEFAULT_TENANT, NewMemory, Owner
from memlane.domain.proxy import PreviousTurn, QueryRule, active_texts, query_for, read_messages
from memlane.domain.retrieval import ContextOptions
from memlane.service.memory_service import MemoryService
from memlane.settings import load_settings

DATA = Path(__file__).resolve().parent / "data" / "proxy_followups.jsonl"
RULES: dict[str, QueryRule] = {
    "last_only": QueryRule(PreviousTurn.NEVER),
    "always_user": QueryRule(PreviousTurn.ALWAYS),
    "always_user_reply": QueryRule(PreviousTurn.ALWAYS, with_reply=True),
    **{f"short{k}_user": QueryRule(PreviousTurn.SHORT, short_words=k) for k in (3, 4, 5, 6, 8, 10)},
    **{f"short{k}_user_reply": QueryRule(PreviousTurn.SHORT, short_words=k, with_reply=True)
       for k in (4, 6, 8)},
}


def load() -> tuple[list[dict[str, Any]], list[str]]:
    lines = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line]
    return [x for x in lines if "fact" in x], [x["distractor"] for x in lines if "distractor" in x]


def messages_of(case: dict[str, Any]) -> Any:
    return read_messages({"messages": [
        {"role": "user", "content": case["previous_user"]},
        {"role": "assistant", "content": case["previous_assistant"]},
        {"role": "user", "content": case["last"]},
    ]})


async def score(
    service: MemoryService, owner: Owner, rule: QueryRule, cases: list[dict[str, Any]]
) -> dict[str, list[int]]:
    hits: dict[str, list[int]] = {"tuning": [], "test": []}  # case ids, negative: missed
    now = datetime.now(UTC)
    for case in cases:
        messages = messages_of(case)
        options = ContextOptions(active_context=tuple(active_texts(messages, now)))
        found = await service.prompt_context(owner, query_for(messages, rule), None, options)
        hit = case["fact"] in {m.content for m in found.memories}
        hits[case["split"]].append(case["id"] if hit else -case["id"])
    return hits


async def run(workdir: Path) -> dict[str, Any]:
    settings = load_settings(
        database={"data_dir": str(workdir / "pgdata"), "url": ""},
        memory={"encryption_key_path": str(workdir / "bench.key")},
        worker={"enabled": False},
    )
    container = Container(settings=settings)
    cases, distractors = load()
    texts = [c["fact"] for c in cases] + distractors
    results: dict[str, Any] = {}
    try:
        service: MemoryService = await container.service()  # type: ignore[misc]
        for name, rule in RULES.items():
            owner = Owner(DEFAULT_TENANT, f"bench-{name}")
            await service.remember_many(owner, [NewMemory(content=t) for t in texts])
            hits = await score(service, owner, rule, cases)
            results[name] = {
                split: {
                    "hits": sum(1 for i in ids if i > 0), "cases": len(ids),
                    "rate": round(sum(1 for i in ids if i > 0) / len(ids), 3),
                    "missed": [-i for i in ids if i < 0],
                }
                for split, ids in hits.items()
            }
    finally:
        await container.shutdown_resources()  # type: ignore[misc]
    order = list(RULES)  # simpler rules first: a tie keeps the earlier
    chosen = max(order, key=lambda n: (results[n]["tuning"]["hits"], -order.index(n)))
    return {
        "cases": len(cases), "distractors": len(distractors), "rules": results,
        "chosen_on_tuning": chosen, "chosen_test_rate": results[chosen]["test"]["rate"],
        "last_only_test_rate": results["last_only"]["test"]["rate"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print only the JSON")
    parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="memlane-bench-proxy-query-"))
    try:
        print(json.dumps(asyncio.run(run(workdir)), indent=2))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
