"""Recall on LoCoMo-shaped sets (LoCoMo, LongMemEval_S, REALTALK): memlane beside a pinned BM25.

Run from the repo root:

    python bench/locomo.py --data locomo-dev.json lme-dev.json realtalk-dev.json \\
        [--k 10] [--out run.json] [--compare before.json] [--model NAME] [--json] [--keep DIR]
        [--sleep]
    python bench/locomo.py --compare before.json after.json

Every set goes through the same code: one memory user per conversation, one memory per turn
(bench/recall_memlane.py), and the pinned BM25 baseline over the same turns
(bench/bm25_baseline.py). Prints turn recall@5/@k of the context path by category, the
field's units (session recall_any@1/5/10, recall_all@5, MRR, turn Hit@1/Hit@5, whether the five
context memories touch an answer session) with memlane minus BM25 and its paired-bootstrap
95 % interval, and a hash of each set's question ids. `--out` keeps every question's values;
`--compare` sets two such runs side by side, question by question. docs/benchmarks.md has the
protocol and the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench import recall_kept as kept_store
from bench.bm25_baseline import bm25_answers
from bench.embedding_cache import EmbeddingCacheStore
from bench.memory_sets import MemorySet, load_set
from bench.recall_memlane import MemlaneRun, run_memlane
from bench.recall_metrics import Retrieved, question_metrics
from bench.recall_report import (
    baseline_table,
    compare_tables,
    recall_table,
    session_table,
    set_record,
    summarise,
)

from memlane.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parent.parent

# The ranking is read this deep: enough for ten distinct sessions in a LongMemEval haystack.
RANK_DEPTH = 50
DEFAULT_CACHE = (
    Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    / "memlane-bench" / "embeddings.sqlite3"
)


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def commit() -> str:
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "src"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+dirty src" if dirty else "")


def record(result: dict[str, Any], memory_set: MemorySet, system: str,
           answers: dict[str, Retrieved]) -> None:
    values = {q.question_id: question_metrics(q, answers[q.question_id])
              for q in memory_set.questions}
    result["sets"][memory_set.name]["systems"][system] = {
        "summary": summarise(memory_set.questions, values),
        "per_question": values,
    }


def store_settings(args: argparse.Namespace, graph: bool, paths: dict[str, str]) -> Settings:
    return load_settings(
        database={"data_dir": paths["data_dir"], "url": ""},
        memory={"enable_encryption": True, "encryption_key_path": paths["encryption_key_path"],
                **({"embedding": {"model": args.model}} if args.model else {})},
        worker={"enabled": False},
        graph={"enabled": graph},
    )


def run_store(args: argparse.Namespace, sets: list[MemorySet], graph: bool, workdir: Path,
              cache: EmbeddingCacheStore | None) -> MemlaneRun:
    """A fresh store in `workdir`; with --keep, the kept store (ingested on its first run)
    copied into `workdir`."""
    conversations = args.ingest == "conversations"
    if args.keep is None:
        settings = store_settings(args, graph, kept_store.store_paths(workdir))
        done = asyncio.run(run_memlane(settings, sets, k=args.k, depth=RANK_DEPTH,
                                       conversations=conversations, cache=cache,
                                       sleep=args.sleep))
        done.timings["model"] = settings.memory.embedding.model
        return done
    model = store_settings(args, graph, kept_store.store_paths(workdir)).memory.embedding.model
    wanted = kept_store.meta(sets, model, args.graph, args.ingest, ROOT)
    if not kept_store.kept(args.keep):
        shutil.rmtree(args.keep / kept_store.STORE, ignore_errors=True)
        settings = store_settings(
            args, graph, kept_store.store_paths(args.keep / kept_store.STORE))
        ingested = asyncio.run(run_memlane(
            settings, sets, k=args.k, depth=RANK_DEPTH, conversations=conversations,
            cache=cache, ask_questions=False))
        kept_store.save(args.keep, wanted, ingested.stored)
        print(f"kept store built in {args.keep}: {ingested.timings}", file=sys.stderr)
    kept_store.check(args.keep, wanted)
    copy = kept_store.copy_store(args.keep, workdir)
    done = asyncio.run(run_memlane(
        store_settings(args, graph, kept_store.store_paths(copy)), sets, k=args.k,
        depth=RANK_DEPTH, conversations=conversations, cache=cache,
        stored=kept_store.load_stored(args.keep), sleep=args.sleep))
    done.timings["model"] = model
    done.timings["kept_store"] = str(args.keep)
    return done


def run(args: argparse.Namespace, sets: list[MemorySet]) -> dict[str, Any]:
    modes = {"both": [True, False], "on": [True], "off": [False]}[args.graph]
    systems = (["memlane" if g else "memlane-graph-off" for g in modes]
               if not args.bm25_only else []) + ["bm25"]
    result: dict[str, Any] = {
        "run": {"k": args.k, "rank_depth": RANK_DEPTH, "ingest": args.ingest, "graph": args.graph,
                "systems": systems, "commit": commit(), "cpu": cpu_name(), "sleep": args.sleep,
                "started": datetime.now(UTC).isoformat(timespec="seconds")},
        "sets": {s.name: set_record(s) for s in sets},
        "timings": {},
    }
    for memory_set in sets:
        answers: dict[str, Retrieved] = {}
        for conversation in memory_set.conversations:
            answers.update(bm25_answers(conversation, args.k, RANK_DEPTH))
        record(result, memory_set, "bm25", answers)
    cache = None if args.no_embedding_cache else EmbeddingCacheStore(args.cache)
    for graph in modes if not args.bm25_only else []:
        workdir = Path(tempfile.mkdtemp(prefix="memlane-recall-"))
        try:
            done = run_store(args, sets, graph, workdir, cache)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        result["run"]["model"] = done.timings.pop("model")
        system = "memlane" if graph else "memlane-graph-off"
        result["timings"][system] = done.timings
        for memory_set in sets:
            record(result, memory_set, system, done.answers[memory_set.name])
    return result


def report(result: dict[str, Any]) -> str:
    meta = result["run"]
    lines = [
        f"commit {meta['commit']}  model {meta.get('model', '-')}  k {meta['k']}  "
        f"ingest {meta['ingest']}  graph {meta['graph']}  cpu {meta['cpu']}  "
        f"wall {meta.get('wall_s', '-')} s",
        "",
    ]
    for name, memory_set in result["sets"].items():
        lines.append(f"{name}: {memory_set['questions']} questions "
                     f"({len(memory_set['headline_ids'])} in categories 1-4), "
                     f"{memory_set['turns']} turns, question ids sha256 {memory_set['id_hash']}")
    lines += ["", "Turn recall of the context path (memlane: retrieve_context with limit 5 and k; "
              "bm25: its top 5 and k)", recall_table(result)]
    lines += ["", "Answer sessions by category (R@K: session recall_any@K of the ranking; "
              "ctx5: the five context memories touch an answer session)", session_table(result)]
    for system in meta["systems"]:
        if system == "bm25":
            continue
        for name in result["sets"]:
            lines += ["", baseline_table(result, name, system)]
    lines += ["", "[95 % CI]: paired bootstrap over questions, 10,000 resamples; "
              "* the interval leaves out 0."]
    for system, timings in result["timings"].items():
        lines.append(f"{system} timings: {json.dumps(timings)}")
    return "\n".join(lines)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", type=Path, nargs="+", help="LoCoMo-shaped JSON files")
    p.add_argument("--k", type=int, default=10, help="memories of the larger context")
    p.add_argument("--json", action="store_true", help="print the whole result as JSON")
    p.add_argument("--out", type=Path, help="write the whole result (every question) here")
    p.add_argument("--compare", type=Path, nargs="+", metavar="RUN.json",
                   help="a saved run to compare this run with, or two saved runs (no run)")
    p.add_argument("--model", help="memory.embedding.model for this run (or the env/config)")
    p.add_argument("--no-embedding-cache", action="store_true", help="embed everything afresh")
    p.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="embedding cache file")
    p.add_argument("--bm25-only", action="store_true", help="the baseline alone, no database")
    p.add_argument("--ingest", choices=["conversations", "memories"], default="conversations",
                   help="through the conversation route (segments), or one memory per turn")
    p.add_argument("--graph", choices=["on", "off", "both"], default="on",
                   help="graph memory on, off, or both (memlane and memlane-graph-off)")
    p.add_argument("--sleep", action="store_true",
                   help="run one sleep cycle over the store before asking (its merges, "
                        "weaving, and clusters with MEMLANE_GRAPH__CLUSTERS=true)")
    p.add_argument("--keep", type=Path, metavar="DIR",
                   help="ingest once into DIR (its first run), then ask on a copy of it "
                        "(bench/recall_kept.py)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    p = parser()
    args = p.parse_args(argv)
    if args.k < 1:
        p.error("--k must be at least 1")
    if args.keep and args.graph == "both":
        p.error("--keep holds one store: --graph on or off")
    if args.compare and len(args.compare) > 2:
        p.error("--compare takes one saved run (compared with this run) or two")
    if args.compare and len(args.compare) == 2:
        before, after = (json.loads(f.read_text(encoding="utf-8")) for f in args.compare)
        print(compare_tables(before, after))
        return 0
    if not args.data:
        p.error("--data is required unless --compare names two saved runs")
    started = time.perf_counter()
    sets = [load_set(path) for path in args.data]
    if len({s.name for s in sets}) < len(sets):
        p.error("two --data files have the same name")
    result = run(args, sets)
    result["run"]["wall_s"] = round(time.perf_counter() - started, 1)
    if args.out:
        args.out.write_text(json.dumps(result), encoding="utf-8")
    if args.json:
        print(json.dumps(result))
    else:
        print(report(result))
    if args.compare:
        before = json.loads(args.compare[0].read_text(encoding="utf-8"))
        print("\nCompared with", args.compare[0])
        print(compare_tables(before, result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
