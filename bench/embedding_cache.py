"""An on-disk embedding cache for bench runs: an EmbeddingPort wrapper keyed by (model, kind, text).

A LongMemEval development run embeds ~49k turns per model; the second run of the same model
reads them back instead. The cache never changes a figure: a vector is stored exactly as the
model returned it (float32 when every value is a float32, else float64), keyed by the model
name, the kind (query or document: e5-style models embed them differently) and the text's
SHA-256, and `verify` re-embeds a sample of stored texts at the start of a run and refuses the
cache when the model no longer gives the same vectors (a rebuilt or re-quantised model under
the same name). Bench code only: the service never sees it.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from memlane.adapters.embedding.delegating import DelegatingEmbedder
from memlane.domain.model import Vector
from memlane.ports.embedding import EmbeddingPort, EmbedKind

SCHEMA = """
CREATE TABLE IF NOT EXISTS vectors (
    model TEXT NOT NULL, kind TEXT NOT NULL, digest BLOB NOT NULL,
    text TEXT NOT NULL, dtype TEXT NOT NULL, vector BLOB NOT NULL,
    PRIMARY KEY (model, kind, digest)
)
"""
LOOKUP_CHUNK = 500  # SQLite's default limit is 999 bound parameters per statement
VERIFY_SAMPLE = 16


class StaleEmbeddingCache(RuntimeError):
    """The model gives other vectors than the cache holds for its name."""


def digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


def _packed(vector: Vector) -> tuple[str, bytes]:
    wide = np.asarray(vector, dtype=np.float64)
    narrow = wide.astype(np.float32)
    if np.array_equal(narrow.astype(np.float64), wide):
        return "float32", narrow.tobytes()
    return "float64", wide.tobytes()


def _unpacked(dtype: str, blob: bytes) -> np.ndarray:
    return np.frombuffer(blob, dtype=np.dtype(dtype)).copy()


class EmbeddingCacheStore:
    """The SQLite file behind the cache; one writer (the bench process) at a time."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path)
        self._db.execute(SCHEMA)

    def get(self, model: str, kind: str, texts: Sequence[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        by_digest = {digest(t): t for t in texts}
        keys = list(by_digest)
        for start in range(0, len(keys), LOOKUP_CHUNK):
            chunk = keys[start : start + LOOKUP_CHUNK]
            rows = self._db.execute(
                "SELECT digest, dtype, vector FROM vectors WHERE model = ? AND kind = ? "
                f"AND digest IN ({','.join('?' * len(chunk))})",
                [model, kind, *chunk],
            )
            for key, dtype, blob in rows:
                found[by_digest[key]] = _unpacked(dtype, blob)
        return found

    def put(self, model: str, kind: str, texts: Sequence[str], vectors: Sequence[Vector]) -> None:
        rows = [
            (model, kind, digest(t), t, *_packed(v)) for t, v in zip(texts, vectors, strict=True)
        ]
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?, ?, ?)", rows)

    def sample(self, model: str, count: int) -> list[tuple[str, str, np.ndarray]]:
        """Up to `count` stored (kind, text, vector) of a model, spread over the file."""
        rows = self._db.execute(
            "SELECT kind, text, dtype, vector FROM vectors WHERE model = ? "
            "ORDER BY digest LIMIT ?", (model, count),
        )
        return [(kind, text, _unpacked(dtype, blob)) for kind, text, dtype, blob in rows]

    def forget(self, model: str) -> None:
        with self._db:
            self._db.execute("DELETE FROM vectors WHERE model = ?", (model,))

    def close(self) -> None:
        self._db.close()


class CachingEmbedder(DelegatingEmbedder):
    """Answers from the store what it holds, asks `inner` for the rest in one call, stores it.

    Everything else is the inner model's (DelegatingEmbedder): a cached run must cut, count
    and compare text as an uncached one."""

    def __init__(self, inner: EmbeddingPort, store: EmbeddingCacheStore) -> None:
        super().__init__(inner)
        self._store = store
        self.hits = 0
        self.misses = 0

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> list[Vector]:
        found = self._store.get(self.model, kind, texts)
        missing = list(dict.fromkeys(t for t in texts if t not in found))
        if missing:
            fresh = await self._inner.embed(missing, kind)
            self._store.put(self.model, kind, missing, fresh)
            found.update(zip(missing, (np.asarray(v) for v in fresh), strict=True))
        self.misses += len(missing)
        self.hits += len(texts) - len(missing)
        return [found[t] for t in texts]

    async def verify(self, tolerance: float = 1e-6) -> int:
        """Re-embed a sample of the stored texts; StaleEmbeddingCache if any vector moved by
        more than `tolerance` in any coordinate. Returns how many were checked."""
        checked = self._store.sample(self.model, VERIFY_SAMPLE)
        for kind in ("query", "document"):
            texts = [text for k, text, _ in checked if k == kind]
            if not texts:
                continue
            fresh = await self._inner.embed(texts, kind)
            stored = [vector for k, _, vector in checked if k == kind]
            for text, old, new in zip(texts, stored, fresh, strict=True):
                gap = float(np.max(np.abs(old.astype(np.float64) - np.asarray(new))))
                if gap > tolerance:
                    raise StaleEmbeddingCache(
                        f"{self.model} now embeds {text[:40]!r} differently from the cache "
                        f"(max gap {gap:.2e})"
                    )
        return len(checked)
