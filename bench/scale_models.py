"""Context latency and ingest at 100k memories under each embedding model, in one run.

    .venv/bin/python bench/scale_models.py [--models multilingual-e5-small,all-MiniLM-L6-v2]
        [--memories 100000] [--rounds 2] [--data-dir DIR] [--json]

Runs bench/scale.py once per model (`--model M --ingest-only --skip-maintenance --curve ''`),
each in its own data dir under DIR (kept, so a rerun reuses the loaded memories; the vectors
are drawn around each model's own topic centres, bench/scale_data.py's TopicSpace), and
prints one JSON object: each model's context p50/p99 (the composition root's service, graph
expansion on), query embedding, database time, ingest, embedder documents/s and the serve
process's RSS, and every figure's ratio to the first model's. Compare only figures of one
run: the models are measured one after the other on the same machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import scale_targets

from memlane.domain.similarity import DEFAULT_EMBEDDING_MODEL, MINILM

SCALE = Path(__file__).with_name("scale.py")
# (name in this output, path in scale.py's JSON)
FIGURES = (
    ("context_p50_ms", ("context", "p50_ms")),
    ("context_p99_ms", ("context", "p99_ms")),
    ("prompt_p50_ms", ("context", "prompt_p50_ms")),
    ("embed_p50_ms", ("context", "embed_p50_ms")),
    ("db_busy_p50_ms", ("context", "db_busy_p50_ms")),
    ("cpu_ms_per_request", ("context", "cpu_ms_per_request")),
    ("embed_cpu_single_thread_ms", ("embed_cpu_single_thread_ms",)),
    ("embedder_docs_per_s", ("embedder_docs_per_s",)),
    ("ingest_per_s", ("ingest_per_s",)),
    ("rss_mb", ("rss_mb",)),
)


def _log(message: str) -> None:
    print(f"[scale-models] {message}", file=sys.stderr, flush=True)


def _dig(result: dict[str, Any], path: tuple[str, ...]) -> Any:
    value: Any = result
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def run_model(model: str, args: argparse.Namespace) -> dict[str, Any]:
    """bench/scale.py for one model; its JSON."""
    command = [
        sys.executable, str(SCALE), "--json", "--model", model,
        "--memories", str(args.memories), "--decay-memories", str(args.memories + args.other_rows),
        "--queries", str(args.queries), "--curve", "", "--ingest-only",
        "--skip-maintenance", "--data-dir", str(args.data_dir / model),
    ]
    _log(" ".join(command[1:]))
    done = subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True)
    return dict(json.loads(done.stdout))


def _median_run(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One run's shape, each figure the median over the rounds (the first run's other keys)."""
    merged: dict[str, Any] = json.loads(json.dumps(runs[0]))
    for _, path in FIGURES:
        values = [v for v in (_dig(run, path) for run in runs) if v is not None]
        if not values:
            continue
        target = merged
        for key in path[:-1]:
            target = target.setdefault(key, {})
        target[path[-1]] = round(statistics.median(values), 2)
    return merged


def compare(results: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Each model's figures, and their ratios to the first model's."""
    models = {name: {label: _dig(result, path) for label, path in FIGURES}
              | {"synthetic_cosines": result.get("synthetic_cosines")}
              for name, result in results.items()}
    first = next(iter(models.values()))
    ratios = {
        name: {label: round(figures[label] / first[label], 2)
               for label, _ in FIGURES if figures[label] and first[label]}
        for name, figures in list(models.items())[1:]
    }
    return {"models": models, "ratio_to_first": ratios}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=lambda v: [m for m in v.split(",") if m],
                        default=[DEFAULT_EMBEDDING_MODEL, MINILM])
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--other-rows", type=int, default=100_000,
                        help="rows of 1,000 other users beside the measured user's")
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=1,
                        help="runs per model, the order alternating; medians reported")
    parser.add_argument("--data-dir", default=None, help="keep and reuse data here")
    parser.add_argument("--json", action="store_true", help="JSON only (the default output)")
    args = parser.parse_args()
    args.data_dir = Path(args.data_dir or tempfile.mkdtemp(prefix="memlane-models-")).resolve()
    # Rounds alternate the order (A B, B A, ...): a machine whose load drifts during the
    # run weighs on both models alike. Each figure is the median of its rounds.
    runs: dict[str, list[dict[str, Any]]] = {model: [] for model in args.models}
    for round_ in range(args.rounds):
        for model in args.models if round_ % 2 == 0 else args.models[::-1]:
            runs[model].append(run_model(model, args))
    results = {model: _median_run(done) for model, done in runs.items()}
    output = {"cpu": scale_targets.cpu(), "memories": args.memories, "rounds": args.rounds,
              **compare(results)}
    print(json.dumps(output, indent=None if args.json else 2))


if __name__ == "__main__":
    main()
