"""Each model's cosine offsets per pair of languages, and how well its language axis reads
a memory's language.

    .venv/bin/python bench/language_offsets.py [--models all-MiniLM-L6-v2,multilingual-e5-small]
        [--turns FILE ...] [--document-share 0.5] [--json]

Offsets (`SimilarityScale.language_offsets`, domain/similarity.py): the hand-labelled
relation questions (bench/data/relation_questions.jsonl, EN and DE) against the labelled
statements with facts (bench/data/facts_labelled.jsonl, EN and DE). A pair is unrelated when
the question asks about none of the statement's relations. Per (question language, statement
language): the mean cosine of unrelated pairs, of related ones, and the offset, the
unrelated mean less English-English's. None of these sentences is in the German recall set
(bench/german.py) the offsets are judged on.

The axis (domain/retrieval/language.py): built from its parallel sentences as the service
builds it, then the share of the labelled statements it puts on the wrong side, and with
`--turns` (LoCoMo-shaped files: the development sets, English) the share of their turns it
calls German (turns written as the conversation route stores them, embedded through the
recall bench's cache, bench/embedding_cache.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.centring import centring_of
from bench.embedding_cache import CachingEmbedder, EmbeddingCacheStore
from bench.locomo import DEFAULT_CACHE
from bench.memory_sets import load_set
from bench.similarity_scales import stored_text

from memlane.adapters.embedding.catalog import ONNX_MODELS
from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.domain.retrieval.language import GERMAN, PARALLEL, language_axis

DATA = Path(__file__).resolve().parent / "data"
LANGUAGES = ("en", "de")


def _rows(name: str) -> list[dict[str, Any]]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [row for row in map(json.loads, lines) if row.get("lang") in LANGUAGES]


async def measure(model: str, turn_files: list[Path], document_share: float | None = None
                  ) -> dict[str, Any]:
    embedder = OnnxEmbeddingAdapter(ONNX_MODELS[model])
    try:
        questions = _rows("relation_questions.jsonl")
        statements = [s for s in _rows("facts_labelled.jsonl") if s["facts"]]
        asked = np.asarray(await embedder.embed([q["text"] for q in questions], kind="query"))
        stated = np.asarray(await embedder.embed([s["text"] for s in statements]))
        # The offsets are of the cosines the service compares: the centred question's.
        centre = await centring_of(embedder, model)
        cosines = centre(asked) @ stated.T
        related = np.asarray([[bool(set(q["relations"]) & {f["relation"] for f in s["facts"]})
                               for s in statements] for q in questions])
        q_lang = np.asarray([q["lang"] for q in questions])[:, None]
        s_lang = np.asarray([s["lang"] for s in statements])[None, :]
        pairs = {}
        for a in LANGUAGES:
            for b in LANGUAGES:
                chosen = (q_lang == a) & (s_lang == b)
                pairs[(a, b)] = {
                    "unrelated": round(float(cosines[chosen & ~related].mean()), 4),
                    "related": round(float(cosines[chosen & related].mean()), 4),
                    "unrelated_pairs": int((chosen & ~related).sum()),
                }
        reference = pairs[("en", "en")]["unrelated"]
        english, german = [e for e, _ in PARALLEL], [g for _, g in PARALLEL]
        documents = await embedder.embed([*english, *german])
        queries = await embedder.embed([*english, *german], kind="query")
        half = len(PARALLEL)
        axis = language_axis(documents[:half], documents[half:], queries[:half], queries[half:],
                             document_share)
        direction = np.asarray(axis.direction)
        wrong = [axis.of_document(float(p)) != s["lang"]
                 for p, s in zip(stated @ direction, statements, strict=True)]
        out: dict[str, Any] = {
            "pairs": {f"{a}-{b}": {**v, "offset": round(v["unrelated"] - reference, 3)}
                      for (a, b), v in pairs.items()},
            "axis": {"document_cut": round(float(axis.document_cut), 4),
                     "question_cut": round(float(axis.question_cut), 4),
                     "statements_on_the_wrong_side": round(sum(wrong) / len(wrong), 4),
                     "questions_on_the_wrong_side": round(sum(
                         axis.of_question(v) != q["lang"]
                         for v, q in zip(asked, questions, strict=True)) / len(questions), 4)},
        }
        # Turns as the conversation route stores them, from the recall bench's cache.
        turns = CachingEmbedder(embedder, EmbeddingCacheStore(DEFAULT_CACHE))
        for path in turn_files:
            texts = [stored_text(t) for c in load_set(path).conversations for t in c.turns]
            projected = np.asarray(await turns.embed(texts)) @ direction
            out["axis"][f"turns_called_german:{path.name}"] = round(float(np.mean(
                [axis.of_document(float(p)) == GERMAN for p in projected])), 4)
        return out
    finally:
        await embedder.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default=",".join(ONNX_MODELS))
    parser.add_argument("--turns", type=Path, nargs="*", default=[],
                        help="LoCoMo-shaped files whose turns the axis should call English")
    parser.add_argument("--document-share", type=float, default=None,
                        help="where a document turns German on the axis (default: the "
                        "service's DOCUMENT_CUT; 0.5 is the midpoint)")
    parser.add_argument("--json", action="store_true", help="JSON only (the default output)")
    args = parser.parse_args()
    result = {m: asyncio.run(measure(m, args.turns, args.document_share))
              for m in args.models.split(",")}
    print(json.dumps(result, indent=None if args.json else 2))


if __name__ == "__main__":
    main()
