"""Which centre and which share to take out of a question: the dense ranking alone, as JSON.

    .venv/bin/python bench/centring_sweep.py --data locomo-dev.json lme-dev.json realtalk-dev.json
        [--model multilingual-e5-small] [--shares 0.25,0.5,0.75,1.0] [--no-embedding-cache]

No database and no fusion: each question of categories 1-4 is scored against its own
conversation's turns, written as the conversation route stores them, by the cosine to the
question less `share` times a centre (docs/recall.md, "Centring the question"). Centres:
`texts`, the mean of `CENTRE_TEXTS` as documents (what the service takes); `user`, the mean
of the conversation's own turns. Prints turn recall@10 and session Hit@1 per set, centre and
share, beside the question as embedded. Vectors come through the recall bench's embedding
cache (bench/embedding_cache.py), so after a recall run nothing is embedded again.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.centring import centre_of
from bench.embedding_cache import CachingEmbedder, EmbeddingCacheStore
from bench.locomo import DEFAULT_CACHE
from bench.memory_sets import Conversation, MemorySet, load_set, session_of
from bench.recall_ceiling import stored_text

from memlane.adapters.embedding.catalog import ONNX_MODELS
from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.ports.embedding import EmbeddingPort, EmbedKind

K = 10


async def _matrix(embedder: EmbeddingPort, texts: Sequence[str], kind: EmbedKind = "document"
                  ) -> NDArray[np.float64]:
    return np.asarray(await embedder.embed(list(texts), kind=kind), dtype=np.float64)


async def conversation_scores(
    embedder: EmbeddingPort, conversation: Conversation, centres: dict[str, NDArray[np.float64]],
    shares: Sequence[float],
) -> dict[tuple[str, float], list[tuple[float, float]]]:
    """(recall@10, session Hit@1) of every question, per (centre, share)."""
    ids = [t.turn_id for t in conversation.turns]
    turns = await _matrix(embedder, [stored_text(t.text, t.speaker, t.created_at)
                                     for t in conversation.turns])
    questions = [q for q in conversation.questions if q.headline and q.evidence]
    if not questions:
        return {}
    asked = await _matrix(embedder, [q.text for q in questions], "query")
    own = {**centres, "user": turns.mean(axis=0)}
    found: dict[tuple[str, float], list[tuple[float, float]]] = {}
    for name, centre in own.items():
        for share in shares if name != "none" else (0.0,):
            scores = turns @ (asked - share * centre).T  # one column per question
            for column, question in enumerate(questions):
                top = np.argsort(-scores[:, column], kind="stable")[:K]
                hits = {ids[i] for i in top} & question.evidence
                first = session_of(ids[int(top[0])]) in question.answer_sessions
                found.setdefault((name, share), []).append(
                    (len(hits) / len(question.evidence), float(first)))
    return found


async def run(sets: Sequence[MemorySet], model: str, shares: Sequence[float],
              cache: EmbeddingCacheStore | None) -> dict[str, Any]:
    inner = OnnxEmbeddingAdapter(ONNX_MODELS[model])
    embedder: EmbeddingPort = inner if cache is None else CachingEmbedder(inner, cache)
    try:
        centres = {"none": np.zeros(1), "texts": await centre_of(embedder)}
        result: dict[str, Any] = {"model": model, "sets": {}}
        for memory_set in sets:
            pooled: dict[tuple[str, float], list[tuple[float, float]]] = {}
            for conversation in memory_set.conversations:
                for key, rows in (await conversation_scores(
                        embedder, conversation, centres, shares)).items():
                    pooled.setdefault(key, []).extend(rows)
            result["sets"][memory_set.name] = {
                f"{name} {share}": {
                    "questions": len(rows),
                    f"recall@{K}": round(float(np.mean([r for r, _ in rows])), 3),
                    "session_hit@1": round(float(np.mean([h for _, h in rows])), 3),
                }
                for (name, share), rows in pooled.items()
            }
        return result
    finally:
        await embedder.close()


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", type=Path, nargs="+", required=True)
    p.add_argument("--model", default="multilingual-e5-small", choices=sorted(ONNX_MODELS))
    p.add_argument("--shares", default="0.25,0.5,0.75,1.0")
    p.add_argument("--no-embedding-cache", action="store_true")
    args = p.parse_args(argv)
    sets = [load_set(path) for path in args.data]
    shares = [float(s) for s in args.shares.split(",")]
    cache = None if args.no_embedding_cache else EmbeddingCacheStore(DEFAULT_CACHE)
    print(json.dumps(asyncio.run(run(sets, args.model, shares, cache)), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
