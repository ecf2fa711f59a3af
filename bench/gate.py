"""The heuristic gate on conversation sets (docs/levels.md): how often it fires, by trigger,
and what a segment costs in process, fired and not. Prints JSON.

Each session is one conversation and each turn one segment, as `bench/locomo.py` ingests
them (`add_messages`, one message per turn named by its speaker). A name is new when no
earlier segment of the same memory user (the set's conversation) said it, as the user's
entity graph would hold it: a new name fires the gate, so every name is linked when first
said. Costs are per segment on this process alone: the gate's reading (names, cue words,
domain), and for a fired segment the heavier steps' in-process part (entity recognition and
the heuristic fact extractor); their database reads and writes are not counted.

    .venv/bin/python bench/gate.py --data locomo-dev.json [realtalk-dev.json ...]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.memory_sets import read_conversation
from bench.scale_stats import percentile

from memlane.adapters.facts.heuristic import extract_all
from memlane.domain.entities import mentions_in, tentative
from memlane.domain.memories import GateInput, decide, domain_evidence
from memlane.domain.memories.gate import SILENT_LIMIT


def measure(path: Path) -> dict[str, Any]:
    samples = json.loads(path.read_text())
    triggers: Counter[str] = Counter()
    gate_us: list[float] = []
    fired_us: list[float] = []
    silent_us: list[float] = []
    segments = fired = 0
    for sample in samples:
        conversation = read_conversation(sample)
        seen: set[str] = set()
        sessions: dict[int, list[Any]] = {}
        for turn in conversation.turns:
            sessions.setdefault(turn.session, []).append(turn)
        for turns in sessions.values():
            silent, domain = 0, None
            for index, turn in enumerate(turns):
                text = f"{turn.speaker}: {turn.text}"
                started = time.perf_counter()
                names = {m.key for m in mentions_in(text, (turn.speaker,))
                         if not tentative(m.salience)}
                found, evidence = domain_evidence(text)
                decision = decide(GateInput(
                    text=text, new_names=len(names - seen),
                    domain=found if evidence else None, previous_domain=domain,
                    silent_before=silent, opening=index == 0,
                ), SILENT_LIMIT)
                reading = time.perf_counter() - started
                seen |= names
                silent, domain = decision.silent, decision.domain
                segments += 1
                gate_us.append(reading * 1e6)
                if not decision.fired:
                    silent_us.append(reading * 1e6)
                    continue
                fired += 1
                triggers.update(t.value for t in decision.triggers)
                started = time.perf_counter()
                mentions_in(text, (turn.speaker,))  # entity linking's recognition
                extract_all([text])  # fact extraction (heuristic)
                fired_us.append((reading + time.perf_counter() - started) * 1e6)
    return {
        "set": path.name, "conversations": len(samples), "segments": segments,
        "fired": fired, "fired_share": round(fired / segments, 3) if segments else None,
        "by_trigger": dict(triggers.most_common()),
        "gate_reading_p50_us": round(percentile(gate_us, 50), 1),
        "segment_cost_p50_us": {"fired": round(percentile(fired_us, 50), 1),
                                "not_fired": round(percentile(silent_us, 50), 1)},
        "segment_cost_mean_us": {
            "fired": round(sum(fired_us) / len(fired_us), 1) if fired_us else None,
            "not_fired": round(sum(silent_us) / len(silent_us), 1) if silent_us else None},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", nargs="+", type=Path, required=True)
    args = parser.parse_args()
    results = []
    for path in args.data:
        results.append(measure(path))
        print(f"[gate] {results[-1]}", file=sys.stderr, flush=True)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
