"""Where LoCoMo's evidence sits in each first-stage ranking: recall@10/30/100 per category, as JSON.

Run from the repo root: `python bench/recall_ceiling.py --data locomo-dev.json --json`.
No database: each turn's text is built as the conversation route stores it
(`document_text` of a one-message segment), embedded by the shipped ONNX model, and indexed by
the shipped stemmer; BM25 is computed exactly (k1 1.2, b 0.75, length in distinct terms, as
the blind index scores it). The rankings:

- `dense`: cosine of the question to the turn's stored text (what memlane searches);
- `dense_sentences`: the best cosine over the turn's sentences, each embedded with the turn's
  date and speaker (a multi-vector index memlane does not keep: this measures what one would
  be worth);
- `lexical`: BM25 over the turn's index terms;
- `fused`: `fused_scores` with the default RecallTuning (dense + lexical).

A context of k memories can hold at most the evidence a ranking puts in its top k plus what
neighbours and the graph bring; evidence below place 30 of every ranking is out of reach of
any reordering of the top of the list (docs/recall.md, "The ceiling with the default model").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from uuid import uuid4

import numpy as np
from numpy.typing import NDArray

from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.domain.memories.segments import SEGMENT_KEY, Message, Role, segment_messages
from memlane.domain.model import DEFAULT_TENANT, Heat, Memory, MemoryType, Owner
from memlane.domain.policy import RecallTuning
from memlane.service.retrieval.fusion import fused_scores
from memlane.service.security.sealing import document_text

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.memory_sets import CATEGORIES, HEADLINE, evidence_turns
from bench.recall_memlane import turn_memories

DEPTHS = (10, 30, 100)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_PHOTO = re.compile(r"\s*\[shares a photo: (.*?)\]")


def stored_text(content: str, speaker: str, created_at: Any) -> str:
    """The text memlane embeds and indexes for a turn sent through the conversation route."""
    segment = segment_messages([Message(Role.USER, content, created_at, speaker)])[0]
    memory = Memory(
        id=uuid4(), owner=Owner(DEFAULT_TENANT, "bench"), memory_type=MemoryType.CONTEXT,
        content=segment.content, summary="", importance=0.5,
        heat=Heat(0.5, 0, created_at), created_at=created_at, updated_at=created_at,
        metadata={SEGMENT_KEY: 0},
    )
    return document_text(memory)


def sentences(content: str) -> list[str]:
    """A turn's sentences of three words or more, its photo caption as one more."""
    photo = _PHOTO.search(content)
    body = _PHOTO.sub("", content).strip()
    found = [s.strip() for s in _SENTENCE_END.split(body) if len(s.split()) >= 3]
    if photo:
        found.append(f"a photo: {photo.group(1).strip()}")
    return found or [body]


class Bm25:
    """Exact BM25 over one conversation's turns."""

    def __init__(self, terms: Sequence[Sequence[str]], k1: float = 1.2, b: float = 0.75) -> None:
        self._tf = [Counter(t) for t in terms]
        self._length = np.array([len(tf) for tf in self._tf], dtype=float)
        self._average = float(self._length.mean())
        self._df = Counter(term for tf in self._tf for term in tf)
        self._k1, self._b = k1, b

    def scores(self, query: Sequence[str]) -> NDArray[np.float64]:
        count = len(self._tf)
        scores = np.zeros(count)
        for term in set(query):
            df = self._df.get(term, 0)
            if not df:
                continue
            idf = math.log(1 + (count - df + 0.5) / (df + 0.5))
            norm = self._k1 * (1 - self._b + self._b * self._length / self._average)
            tf = np.array([t.get(term, 0) for t in self._tf], dtype=float)
            scores += idf * tf * (self._k1 + 1) / (tf + norm)
        return scores


async def embedded(embedder: OnnxEmbeddingAdapter, texts: Sequence[str]) -> NDArray[np.float32]:
    vectors = np.array(await embedder.embed(list(texts)), dtype=np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def order(scores: NDArray[Any], keep: NDArray[np.bool_] | None = None) -> list[int]:
    ranked = np.argsort(-scores, kind="stable")
    return [int(i) for i in ranked if keep is None or keep[i]]


async def conversation_rankings(
    sample: Mapping[str, Any], embedder: OnnxEmbeddingAdapter, keywords: SnowballKeywordAdapter
) -> tuple[list[str], list[tuple[int, set[str], dict[str, list[int]]]]]:
    """The turn ids and, per question, its category, evidence and each ranking (turn indexes)."""
    turns = list(turn_memories(sample))
    ids = [str(t.metadata["sources"][0]) for t in turns]
    texts = [stored_text(t.content, str(t.metadata["speaker"]), t.created_at) for t in turns]
    owners, pieces = [], []
    for index, turn in enumerate(turns):
        for sentence in sentences(turn.content):
            owners.append(index)
            pieces.append(stored_text(sentence, str(turn.metadata["speaker"]), turn.created_at))
    questions = [q for q in sample["qa"] if evidence_turns(q.get("evidence", []))]
    documents = await embedded(embedder, texts)
    sentence_vectors = await embedded(embedder, pieces)
    queries = await embedded(embedder, [q["question"] for q in questions])
    bm25 = Bm25([keywords.terms(text) for text in texts])
    owner_of = np.array(owners)
    tuning = RecallTuning()
    rankings = []
    for question, vector in zip(questions, queries, strict=True):
        dense = documents @ vector
        best_sentence = np.full(len(texts), -1.0)
        np.maximum.at(best_sentence, owner_of, sentence_vectors @ vector)
        lexical = bm25.scores(keywords.terms(question["question"]))
        dense_order = order(dense)
        lexical_order = order(lexical, lexical > 0)
        fused = fused_scores(
            dense_order[: tuning.candidate_pool], lexical_order[: tuning.candidate_pool],
            k=tuning.rrf_k, dense_weight=tuning.dense_weight,
            lexical_weight=tuning.lexical_weight,
        )
        rankings.append((
            int(question["category"]), evidence_turns(question["evidence"]),
            {
                "dense": dense_order, "dense_sentences": order(best_sentence),
                "lexical": lexical_order, "fused": list(fused),
            },
        ))
    return ids, rankings


def recall_at(ranking: Sequence[int], ids: Sequence[str], evidence: set[str], k: int) -> float:
    return len({ids[i] for i in ranking[:k]} & evidence) / len(evidence)


async def run(samples: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    embedder, keywords = OnnxEmbeddingAdapter(), SnowballKeywordAdapter()
    sums: defaultdict[tuple[str, int, int], float] = defaultdict(float)
    counts: Counter[int] = Counter()
    try:
        for sample in samples:
            ids, rankings = await conversation_rankings(sample, embedder, keywords)
            for category, evidence, by_name in rankings:
                counts[category] += 1
                for name, ranking in by_name.items():
                    for k in DEPTHS:
                        sums[(name, category, k)] += recall_at(ranking, ids, evidence, k)
    finally:
        await embedder.close()
    names = ("dense", "dense_sentences", "lexical", "fused")
    headline = sum(counts[c] for c in HEADLINE)

    def figure(name: str, k: int, chosen: Sequence[int]) -> float:
        total = sum(counts[c] for c in chosen)
        return round(sum(sums[(name, c, k)] for c in chosen) / total, 4) if total else 0.0

    return {
        "questions": {CATEGORIES[c]: counts[c] for c in sorted(counts)},
        "recall": {
            name: {
                f"@{k}": {
                    "overall": figure(name, k, HEADLINE),
                    **{CATEGORIES[c]: figure(name, k, (c,)) for c in sorted(counts)},
                }
                for k in DEPTHS
            }
            for name in names
        },
        "headline_questions": headline,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="locomo10.json or a split of it")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args(argv)
    result = asyncio.run(run(json.loads(args.data.read_text())))
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    for name, by_depth in result["recall"].items():
        cells = " ".join(f"@{k}:{by_depth[f'@{k}']['overall']:.3f}" for k in DEPTHS)
        multi = "/".join(f"{by_depth[f'@{k}']['multi-hop']:.3f}" for k in DEPTHS)
        print(f"{name:16s} overall {cells}  multi-hop {multi}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
