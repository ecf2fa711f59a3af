"""Extraction cost: `extract_facts` per turn over the turns of a LoCoMo-shaped file.

    .venv/bin/python bench/fact_cost.py [--turns FILE] [--repeats N] [--src DIR]

Times the pattern extractor over every turn of every session (all speakers), N times, and
prints the best and median pass as microseconds of process CPU time per turn (CPU time, not
wall time, so other processes on a loaded host count less). `--src DIR` loads `memlane` from
another checkout's `src/` (an older commit unpacked with `git archive`), so two versions can
be timed alternately in one sitting on a loaded machine; compare only figures of one sitting.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

DEFAULT_TURNS = Path("/work/shared/bench/locomo/locomo-dev.json")


def _load_from(src: Path) -> None:
    """Make `import memlane` read `src` (before anything imported the installed one)."""
    spec = importlib.util.spec_from_file_location(
        "memlane", src / "__init__.py", submodule_search_locations=[str(src)])
    if spec is None or spec.loader is None:
        raise SystemExit(f"no package at {src}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["memlane"] = module
    spec.loader.exec_module(module)


def turns_of(path: Path) -> list[str]:
    samples = json.loads(path.read_text(encoding="utf-8"))
    return [turn["text"] for sample in samples
            for key, session in sample["conversation"].items()
            if key.startswith("session_") and isinstance(session, list)
            for turn in session]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=Path, default=DEFAULT_TURNS)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--src", type=Path, help="another checkout's src/ to time")
    args = parser.parse_args(argv)
    if args.src is not None:
        _load_from(args.src.resolve())
    # Imported only now, so that --src decides which memlane it is.
    from memlane.domain.facts.extraction import extract_facts

    texts = turns_of(args.turns)
    extract_facts(texts[0])  # compile the patterns outside the timed passes
    passes, facts = [], 0
    for _ in range(args.repeats):
        start = time.process_time()
        facts = sum(len(extract_facts(text)) for text in texts)
        passes.append((time.process_time() - start) / len(texts) * 1e6)
    print(json.dumps({"src": str(args.src or "installed"), "turns": len(texts), "facts": facts,
                      "us_per_turn_best": round(min(passes), 1),
                      "us_per_turn_median": round(statistics.median(passes), 1)}))


if __name__ == "__main__":
    main()
