"""The share of each set's text a local model never embeds: tokens past the model's window.

    .venv/bin/python bench/window_cut.py --data locomo-dev.json lme-dev.json realtalk-dev.json
        [--models all-MiniLM-L6-v2,multilingual-e5-small]

Each turn is counted as the conversation route stores it, `speaker: text` (the stored memory
also carries its date, a few tokens more), with the model's document prefix, by the model's
own tokenizer (the adapter's `count_tokens`, special tokens included). Per set and model:
turns over the window, their share, and the share of all tokens past the window (what the
embedder cuts off and never sees). Counting only: nothing is embedded, so it runs in seconds
to a few minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.memory_sets import load_set

from memlane.adapters.embedding.catalog import ONNX_MODELS
from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter

MODELS = ("all-MiniLM-L6-v2", "multilingual-e5-small")


def cut_figures(counts: Sequence[int], window: int) -> dict[str, Any]:
    """Turns over the window and the share of tokens past it."""
    over = [c for c in counts if c > window]
    total = sum(counts)
    return {
        "turns": len(counts),
        "window_tokens": window,
        "turns_over_window": len(over),
        "share_of_turns_cut": round(len(over) / len(counts), 4) if counts else 0.0,
        "share_of_tokens_cut": round(sum(c - window for c in over) / total, 4) if total else 0.0,
        "mean_tokens": round(total / len(counts), 1) if counts else 0.0,
        "longest": max(counts, default=0),
    }


async def measure(paths: Sequence[Path], models: Sequence[str]) -> dict[str, Any]:
    sets = [load_set(p) for p in paths]
    out: dict[str, Any] = {}
    for name in models:
        adapter = OnnxEmbeddingAdapter(ONNX_MODELS[name])
        try:
            for memory_set in sets:
                texts = [
                    f"{t.speaker}: {t.text}" for c in memory_set.conversations for t in c.turns
                ]
                counts = await adapter.count_tokens(texts, kind="document")
                out.setdefault(memory_set.name, {})[name] = cut_figures(
                    counts, adapter.window_tokens
                )
        finally:
            await adapter.close()
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, nargs="+", required=True)
    parser.add_argument("--models", default=",".join(MODELS))
    args = parser.parse_args(argv)
    print(json.dumps(asyncio.run(measure(args.data, args.models.split(","))), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
