"""Supersession through the real service, both write routes, each scenario a fresh user.

    .venv/bin/python bench/supersession_routes.py [--data FILE] [--route memory|conversation|both]
                                                  [--model NAME] [--limit N] [--learned]
                                                  [--json]

The embedded defaults (private PostgreSQL + pgvector, the onnx model, encryption on, graph
and facts on) in a scratch data dir. For every scenario of bench/data/supersession_scenarios.jsonl
a new user says the older statements one at a time, a day apart, then the new one: through
`remember` (POST /v1/memories) or through `add_messages` (the conversation route, each
statement a user message answered by the assistant). What the new memory replaced is read
from the graph (its supersedes and contradiction edges, whether the words or a replaced fact
made them). Scored as bench/supersession.py scores the judge, per half and language, plus
how often both routes reached the same decision. Read only the tuning half's errors.
`--learned` sets `graph.supersession_judge = "learned"` (docs/supersession.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from collections.abc import Mapping, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

from halves import HALVES, TUNE, in_half
from memlane.container import Memlane, open_memlane
from memlane.domain.graph import EdgeKind
from memlane.domain.memories import Message, Role
from memlane.domain.model import NewMemory, Owner
from memlane.settings import Settings
from supersession import DATA, load, said_at

ROUTES = ("memory", "conversation")
REPLY = "Thanks for telling me, I'll keep that in mind."
REPLACING = {EdgeKind.SUPERSEDES, EdgeKind.CONTRADICTION}
RUNNING = 4  # scenarios written at once


async def _write(memlane: Memlane, owner: Owner, route: str, text: str, index: int) -> Any:
    at = said_at(index)
    if route == "memory":
        return (await memlane.service.remember(owner, NewMemory(content=text,
                                                                created_at=at))).memory.id
    added = await memlane.service.add_messages(owner, "bench", [
        Message(Role.USER, text, at), Message(Role.ASSISTANT, REPLY, at + timedelta(seconds=5)),
    ])
    return added.memories[0].id


async def _scenario(memlane: Memlane, scenario: Mapping[str, Any], route: str) -> list[int]:
    """The indices of the older statements the new one replaced, in the service's graph."""
    owner = Owner("bench", f"{route}-{scenario['id']}")
    older = [await _write(memlane, owner, route, text, i)
             for i, text in enumerate(scenario["history"])]
    new = await _write(memlane, owner, route, scenario["new"], len(older))
    view = await memlane.service.neighbourhood(owner, new, 1, REPLACING)
    return sorted({older.index(e.target) for e in view.edges
                   if e.source == new and e.target in older})


def score(scenarios: Sequence[Mapping[str, Any]], picks: Mapping[str, list[int]]) -> dict[str, Any]:
    """Detected: the labelled statement among those replaced. Wrong: any other replaced."""
    positives = [s for s in scenarios if s["supersedes"] is not None]
    detected = [s for s in positives if s["supersedes"] in picks[s["id"]]]
    wrong = [s for s in scenarios if set(picks[s["id"]]) - {s["supersedes"]}]
    return {"scenarios": len(scenarios), "positives": len(positives),
            "detected": len(detected), "wrong": len(wrong),
            "detected_rate": round(len(detected) / max(len(positives), 1), 4),
            "wrong_rate": round(len(wrong) / max(len(scenarios), 1), 4),
            "missed_ids": [s["id"] for s in positives if s not in detected],
            "wrong_ids": [s["id"] for s in wrong]}


def report(
    scenarios: Sequence[Mapping[str, Any]], picks: Mapping[str, list[int]]
) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for half in HALVES:
        part = in_half(scenarios, half)
        result[half] = {k: v for k, v in score(part, picks).items()
                        if not k.endswith("_ids") or half == TUNE}
        for lang in ("en", "de"):
            figures = score([s for s in part if s["lang"] == lang], picks)
            result[half][lang] = {k: figures[k] for k in ("detected_rate", "wrong_rate")}
    return result


async def run(scenarios: Sequence[Mapping[str, Any]], routes: Sequence[str],
              model: str | None, learned: bool = False) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="memlane-bench-supersession-") as scratch:
        home = Path(scratch)
        settings = Settings(
            database={"data_dir": home / "data"},
            memory={"encryption_key_path": home / "key",
                    **({"embedding": {"model": model}} if model else {})},
            worker={"enabled": False},
            graph={"supersession_judge": "learned" if learned else "rules"},
        )
        running = asyncio.Semaphore(RUNNING)
        async with open_memlane(settings) as memlane:

            async def one(scenario: Mapping[str, Any], route: str) -> list[int]:
                async with running:
                    return await _scenario(memlane, scenario, route)

            picks = {
                route: dict(zip([s["id"] for s in scenarios], await asyncio.gather(
                    *(one(s, route) for s in scenarios)), strict=True))
                for route in routes
            }
    result: dict[str, Any] = {route: report(scenarios, picks[route]) for route in routes}
    if len(routes) == 2:
        differing = [s["id"] for s in scenarios if picks[ROUTES[0]][s["id"]]
                     != picks[ROUTES[1]][s["id"]]]
        result["routes_agree"] = {"same": len(scenarios) - len(differing),
                                  "scenarios": len(scenarios),
                                  "differing_tuning_ids": [i for i in differing
                                                           if i in {s["id"] for s in
                                                                    in_half(scenarios, TUNE)}]}
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--route", choices=(*ROUTES, "both"), default="both")
    parser.add_argument("--model", help="memory.embedding.model (default: the configured one)")
    parser.add_argument("--limit", type=int, help="only the first N scenarios (a quick run)")
    parser.add_argument("--learned", action="store_true", help="the learned judge on")
    parser.add_argument("--json", action="store_true", help="one compact JSON object")
    args = parser.parse_args(argv)
    scenarios = load(args.data)[: args.limit]
    routes = ROUTES if args.route == "both" else (args.route,)
    result = asyncio.run(run(scenarios, routes, args.model, args.learned))
    print(json.dumps(result, ensure_ascii=False, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
