"""LoCoMo retrieval benchmark: ingest conversations through the service, report recall@k as JSON.

Run from the repo root: `python bench/locomo.py --data locomo-dev.json
--k 10 --json`. Each conversation is one memory user; each turn one memory (by default one
segment of the conversation route, `--ingest memories` for `remember_many`; its session date as
created_at, speaker/session/turn in metadata, the turn in `metadata.sources` so that a merge keeps
every turn it absorbed). Each question goes through `retrieve_context` with limit=k (and again
with limit=5 for recall@5), the selection behind POST /v1/context, and the returned memories
map back to all their source turns (a merged memory counts as returning each turn it holds,
but takes one place of the k).
Everything runs on the embedded defaults with encryption on, in a temporary directory.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from memlane.container import open_memlane
from memlane.domain.memories.segments import SEGMENT_KEY, Message, Role
from memlane.domain.model import DEFAULT_TENANT, MemoryContext, MemoryType, NewMemory, Owner
from memlane.service.memory_service import MemoryService
from memlane.settings import load_settings

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
HEADLINE = (1, 2, 3, 4)
INGEST_BATCH = 64
# Turns of a session get increasing timestamps (LoCoMo gives only the session start), as a
# chat service would record them; the order is what neighbour expansion follows.
TURN_SPACING = timedelta(seconds=30)
_EVIDENCE = re.compile(r"D:?(\d+):0*(\d+)")
_SESSION = re.compile(r"session_(\d+)$")
_DATE_FORMATS = ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y", "%I:%M %p on %B %d, %Y")


def parse_date(text: str) -> datetime:
    cleaned = " ".join(text.split())
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(cleaned, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    raise ValueError(f"unrecognised LoCoMo date {text!r}")


def evidence_turns(evidence: Sequence[str]) -> set[str]:
    """Normalised turn ids ("D8:6; D9:17" -> both, "D:11:26" -> D11:26, "D30:05" -> D30:5)."""
    found: set[str] = set()
    for item in evidence:
        for session, turn in _EVIDENCE.findall(str(item)):
            found.add(f"D{int(session)}:{int(turn)}")
    return found


def turn_memories(sample: Mapping[str, Any]) -> Iterator[NewMemory]:
    """One memory per turn, in conversation order."""
    conversation = sample["conversation"]
    sample_id = sample["sample_id"]
    sessions = sorted(
        (int(m.group(1)), key) for key in conversation
        if (m := _SESSION.match(key)) and isinstance(conversation[key], list)
    )
    for number, key in sessions:
        started = parse_date(conversation[f"{key}_date_time"])
        for index, turn in enumerate(conversation[key]):
            text = turn["text"].strip()
            if turn.get("blip_caption"):
                text += f" [shares a photo: {turn['blip_caption']}]"
            turn_id = evidence_turns([turn["dia_id"]]).pop()
            yield NewMemory(
                content=text,
                memory_type=MemoryType.CONTEXT,
                conversation_id=f"{sample_id}/session_{number}",
                created_at=started + index * TURN_SPACING,
                metadata={
                    "speaker": turn["speaker"],
                    "session_date": started.date().isoformat(),
                    "conversation": sample_id,
                    "session": number,
                    "sources": [turn_id],
                },
            )


# (conversation_id, segment position) -> turn id, for memories stored as conversation segments.
SEGMENT_TURNS: dict[tuple[str, int], str] = {}


def source_turns(memory: MemoryContext) -> set[str]:
    segment = memory.metadata.get(SEGMENT_KEY)
    if segment is not None and memory.conversation_id is not None:
        turn = SEGMENT_TURNS.get((memory.conversation_id, int(segment)))
        return {turn} if turn else set()
    return {str(s) for s in memory.metadata.get("sources", [])}


async def ingest(service: MemoryService, owner: Owner, sample: Mapping[str, Any]) -> int:
    items = list(turn_memories(sample))
    for start in range(0, len(items), INGEST_BATCH):
        await service.remember_many(owner, items[start : start + INGEST_BATCH])
    return len(items)


async def ingest_conversation(
    service: MemoryService, owner: Owner, sample: Mapping[str, Any]
) -> int:
    """Each session through the conversation route (POST /v1/conversations/{id}/messages):
    every turn a user message named by its speaker, so each is its own segment."""
    sessions: dict[str, list[NewMemory]] = defaultdict(list)
    for item in turn_memories(sample):
        sessions[str(item.conversation_id)].append(item)
    for conversation_id, turns in sessions.items():
        messages = [
            Message(Role.USER, t.content, t.created_at, str(t.metadata["speaker"]))
            for t in turns
        ]
        added = await service.add_messages(owner, conversation_id, messages)
        for memory, turn in zip(added.memories, turns, strict=True):
            position = int(memory.metadata[SEGMENT_KEY])
            SEGMENT_TURNS[(conversation_id, position)] = str(turn.metadata["sources"][0])
    return sum(len(t) for t in sessions.values())


class Tally:
    """Recall sums per category."""

    def __init__(self) -> None:
        self.sums: defaultdict[int, dict[str, float]] = defaultdict(
            lambda: {"recall@5": 0.0, "recall@k": 0.0, "questions": 0}
        )

    def add(self, category: int, wanted: set[str], top5: set[str], topk: set[str]) -> None:
        row = self.sums[category]
        row["recall@5"] += len(wanted & top5) / len(wanted)
        row["recall@k"] += len(wanted & topk) / len(wanted)
        row["questions"] += 1

    def summary(self, categories: Sequence[int], k: int) -> dict[str, float | int]:
        rows = [self.sums[c] for c in categories if c in self.sums]
        count = int(sum(r["questions"] for r in rows))
        if not count:
            return {"recall@5": 0.0, f"recall@{k}": 0.0, "questions": 0}
        return {
            "recall@5": round(sum(r["recall@5"] for r in rows) / count, 4),
            f"recall@{k}": round(sum(r["recall@k"] for r in rows) / count, 4),
            "questions": count,
        }


async def run(
    samples: Sequence[Mapping[str, Any]], k: int, workdir: Path, *, graph: bool,
    conversations: bool,
) -> dict[str, Any]:
    settings = load_settings(
        database={"data_dir": str(workdir / "pgdata"), "url": ""},
        memory={"enable_encryption": True, "encryption_key_path": str(workdir / "bench.key")},
        worker={"enabled": False},
        graph={"enabled": graph},
    )
    load = ingest_conversation if conversations else ingest
    tally = Tally()
    latencies_ms: list[float] = []
    turns = 0
    async with open_memlane(settings) as memlane:
        service = memlane.service
        started = time.perf_counter()
        for sample in samples:
            turns += await load(service, Owner(DEFAULT_TENANT, sample["sample_id"]), sample)
        ingest_s = time.perf_counter() - started
        started = time.perf_counter()
        for sample in samples:
            owner = Owner(DEFAULT_TENANT, sample["sample_id"])
            for qa in sample["qa"]:
                wanted = evidence_turns(qa.get("evidence", []))
                if not wanted:
                    continue
                asked = time.perf_counter()
                chosen = await service.retrieve_context(owner, qa["question"], k)
                latencies_ms.append((time.perf_counter() - asked) * 1000)
                # recall@5 is what the same path returns with limit=5 (the k memories come
                # back in type-priority order, which says nothing about the best five).
                best5 = await service.retrieve_context(owner, qa["question"], 5)
                topk = set().union(*(source_turns(m) for m in chosen))
                top5 = set().union(*(source_turns(m) for m in best5))
                tally.add(int(qa["category"]), wanted, top5, topk)
        query_s = time.perf_counter() - started
        memories = 0
        for sample in samples:
            memories += (await service.stats(Owner(DEFAULT_TENANT, sample["sample_id"]))).total
    latencies_ms.sort()
    return {
        "k": k,
        "overall": tally.summary(HEADLINE, k),
        "by_category": {CATEGORIES[c]: tally.summary([c], k) for c in HEADLINE},
        "adversarial": tally.summary([5], k),
        "timings": {
            "ingest_s": round(ingest_s, 2),
            "turns": turns,
            "query_total_s": round(query_s, 2),
            "query_p50_ms": round(statistics.median(latencies_ms), 2) if latencies_ms else 0.0,
            "query_p95_ms": round(latencies_ms[int(0.95 * (len(latencies_ms) - 1))], 2)
            if latencies_ms else 0.0,
        },
        "memories": memories,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="LoCoMo JSON file")
    parser.add_argument("--k", type=int, default=10, help="memories returned per question")
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    parser.add_argument(
        "--ingest", choices=["conversations", "memories"], default="conversations",
        help="through the conversation route (segments), or one memory per turn",
    )
    parser.add_argument(
        "--graph", choices=["both", "on", "off"], default="both",
        help="graph memory on, off, or both in one run (then: {'graph_on', 'graph_off'})",
    )
    args = parser.parse_args(argv)
    if args.k < 1:
        parser.error("--k must be at least 1")
    samples = json.loads(args.data.read_text(encoding="utf-8"))
    modes = {"both": [True, False], "on": [True], "off": [False]}[args.graph]
    results: dict[str, Any] = {}
    for graph in modes:
        workdir = Path(tempfile.mkdtemp(prefix="memlane-locomo-"))
        try:
            results["graph_on" if graph else "graph_off"] = asyncio.run(run(
                samples, args.k, workdir, graph=graph,
                conversations=args.ingest == "conversations",
            ))
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
    if args.json:
        print(json.dumps(results if len(results) > 1 else next(iter(results.values()))))
        return 0
    for label, result in results.items():
        print(label)
        overall = result["overall"]
        print(f"recall@5 {overall['recall@5']:.3f}  recall@{args.k} "
              f"{overall[f'recall@{args.k}']:.3f}  over {overall['questions']} questions")
        for name, row in result["by_category"].items():
            recall = row[f"recall@{args.k}"]
            print(f"  {name:12s} recall@{args.k} {recall:.3f} ({row['questions']})")
        print(f"  adversarial  recall@{args.k} {result['adversarial'][f'recall@{args.k}']:.3f}")
        print(f"  timings {result['timings']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
