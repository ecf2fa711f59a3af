"""Long turns: does embedding the text past the model's window rank the evidence better?

    .venv/bin/python bench/long_turns.py --data locomo-dev.json lme-dev.json realtalk-dev.json
        [--model all-MiniLM-L6-v2] [--chunk-chars 500] [--overlap-chars 100] [--json]

The embedder reads one window per text (256 tokens for MiniLM) and cuts the rest; on
LongMemEval a third of the turns are longer (bench/window_cut.py). This compares, per
question of categories 1-4, a dense-only ranking of the question's own conversation's turns
(`speaker: text`, as the conversation route stores them) under five ways to score a turn:

- `first`: the turn's one vector, its first window (what memlane stores);
- `max`: the best cosine among overlapping chunks of about `--chunk-chars` characters
  (`--overlap-chars` shared, cut at spaces);
- `top3`: the mean of its best three chunk cosines (issue 29's "chunked pooling");
- `pooled`: one vector, the normalised mean of its chunks' vectors;
- `first+max`: the mean of `first` and `max`.

Each is measured twice: chunking every long turn, and chunking only the user's (`user_only`;
an assistant's reply keeps its first window, as its `replied` weight keeps it below the
user's words in memlane). A turn that fits in one chunk scores the same under all five.
Prints turn Hit@1, recall@5 and recall@10 (the share of a question's evidence turns among the
ten best). Dense only, no BM25 or fusion: it isolates what the vectors do. Vectors come from
the bench's embedding cache (bench/embedding_cache.py), so a second run embeds nothing.
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.embedding_cache import CachingEmbedder, EmbeddingCacheStore
from bench.memory_sets import Conversation, load_set

from memlane.adapters.embedding.catalog import ONNX_MODELS
from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter

CACHE = Path.home() / ".cache" / "memlane-bench" / "embeddings.sqlite3"
WAYS = ("first", "max", "top3", "pooled", "first+max")


def chunks(text: str, size: int, overlap: int) -> list[str]:
    """Overlapping pieces of about `size` characters, cut at spaces; the text itself when it
    is not much longer than one piece."""
    if len(text) <= size + overlap:
        return [text]
    pieces: list[str] = []
    start = 0
    while start < len(text):
        end = min(len(text), start + size)
        if end < len(text):
            space = text.rfind(" ", start + size // 2, end)
            end = space if space > 0 else end
        pieces.append(text[start:end])
        if end >= len(text):
            break
        back = text.rfind(" ", start, end - overlap)
        start = back + 1 if back > start else end - overlap
    return pieces


def scores(full: np.ndarray, piece_vectors: np.ndarray, owner: np.ndarray,
           query: np.ndarray) -> dict[str, np.ndarray]:
    """Each turn's score under every way, for one question."""
    cosines = piece_vectors @ query
    best = np.full(len(full), -np.inf)
    np.maximum.at(best, owner, cosines)
    top3 = np.array([np.sort(cosines[owner == i])[::-1][:3].mean() for i in range(len(full))])
    pooled = np.zeros_like(full)
    np.add.at(pooled, owner, piece_vectors)
    pooled /= np.linalg.norm(pooled, axis=1, keepdims=True)
    first = full @ query
    return {"first": first, "max": best, "top3": top3, "pooled": pooled @ query,
            "first+max": (first + best) / 2}


async def conversation_rows(
    embedder: CachingEmbedder, conversation: Conversation, size: int, overlap: int,
    user_only: bool,
) -> list[dict[str, tuple[float, float, float]]]:
    """Per question: (Hit@1, recall@5, recall@10) under each way."""
    questions = [q for q in conversation.questions if q.headline and q.evidence]
    if not questions:
        return []
    turns = conversation.turns
    texts = [f"{t.speaker}: {t.text}" for t in turns]
    full = np.asarray(await embedder.embed(texts))
    pieces, owner = [], []
    for at, (turn, text) in enumerate(zip(turns, texts, strict=True)):
        kept_whole = user_only and turn.assistant
        for piece in [text] if kept_whole else chunks(text, size, overlap):
            pieces.append(piece)
            owner.append(at)
    piece_vectors = np.asarray(await embedder.embed(pieces))
    asked = np.asarray(await embedder.embed([q.text for q in questions], kind="query"))
    ids = [t.turn_id for t in turns]
    rows = []
    for question, query in zip(questions, asked, strict=True):
        row = {}
        for way, score in scores(full, piece_vectors, np.asarray(owner), query).items():
            ranked = [ids[i] for i in np.argsort(-score, kind="stable")[:10]]
            found = question.evidence
            row[way] = (float(ranked[0] in found), len(found & set(ranked[:5])) / len(found),
                        len(found & set(ranked)) / len(found))
        rows.append(row)
    return rows


def summary(rows: Sequence[dict[str, tuple[float, float, float]]]) -> dict[str, Any]:
    out: dict[str, Any] = {"questions": len(rows)}
    for way in WAYS:
        hit1, r5, r10 = np.asarray([r[way] for r in rows]).mean(axis=0) if rows else (0, 0, 0)
        out[way] = {"turn_hit@1": round(float(hit1), 3), "recall@5": round(float(r5), 3),
                    "recall@10": round(float(r10), 3)}
    return out


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    store = EmbeddingCacheStore(CACHE)
    inner = OnnxEmbeddingAdapter(ONNX_MODELS[args.model])
    embedder = CachingEmbedder(inner, store)
    result: dict[str, Any] = {"model": args.model, "chunk_chars": args.chunk_chars,
                              "overlap_chars": args.overlap_chars, "sets": {}}
    try:
        for path in args.data:
            memory_set = load_set(path)
            for user_only in (False, True):
                rows = []
                for conversation in memory_set.conversations:
                    rows += await conversation_rows(
                        embedder, conversation, args.chunk_chars, args.overlap_chars, user_only)
                key = "user_only" if user_only else "every_turn"
                result["sets"].setdefault(memory_set.name, {})[key] = summary(rows)
    finally:
        await inner.close()
        store.close()
    result["embedded"] = embedder.misses
    return result


def table(result: dict[str, Any]) -> str:
    lines = [f"model {result['model']}, chunks of {result['chunk_chars']} characters "
             f"({result['overlap_chars']} shared); dense only: Hit@1 / recall@5 / recall@10"]
    for name, by_scope in result["sets"].items():
        for scope, figures in by_scope.items():
            lines.append(f"{name} ({scope}, {figures['questions']} questions)")
            for way in WAYS:
                f = figures[way]
                lines.append(f"  {way:10} {f['turn_hit@1']:.3f} / {f['recall@5']:.3f} / "
                             f"{f['recall@10']:.3f}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, nargs="+", required=True)
    parser.add_argument("--model", default="all-MiniLM-L6-v2", choices=sorted(ONNX_MODELS))
    parser.add_argument("--chunk-chars", type=int, default=500)
    parser.add_argument("--overlap-chars", type=int, default=100)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.chunk_chars <= args.overlap_chars or args.overlap_chars < 0:
        parser.error("--chunk-chars must exceed --overlap-chars, which must not be negative")
    result = asyncio.run(measure(args))
    print(json.dumps(result, indent=1) if args.json else table(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
