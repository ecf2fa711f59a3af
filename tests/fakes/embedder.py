"""FakeEmbedder: deterministic hashed bag-of-words vectors, with a switch to simulate an outage."""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Mapping, Sequence

from memlane.domain.errors import EmbeddingUnavailable
from memlane.domain.model import Vector
from memlane.ports.embedding import EmbeddingPort, EmbedKind

_WORD = re.compile(r"\w+")
_TOKEN = re.compile(r"\w+|[^\w\s]")


def _bucket(word: str, dimension: int) -> int:
    # blake2b, not hash(): Python's str hash is salted per process.
    return int.from_bytes(hashlib.blake2b(word.encode(), digest_size=4).digest()) % dimension


class FakeEmbedder(EmbeddingPort):
    """Identical texts get cosine 1 and texts sharing words get a high cosine.

    `vectors` pins exact vectors for given texts (to craft similarities); `available = False`
    makes every call raise EmbeddingUnavailable; `calls` records each batch for assertions.
    """

    def __init__(self, dimension: int = 64, vectors: Mapping[str, Vector] | None = None) -> None:
        self._dimension = dimension
        self.vectors: dict[str, Vector] = dict(vectors or {})
        self.available = True
        self.calls: list[tuple[list[str], EmbedKind]] = []

    @property
    def model(self) -> str:
        return f"fake-bow-{self._dimension}"

    @property
    def dimension(self) -> int:
        return self._dimension

    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> list[Vector]:
        self.calls.append((list(texts), kind))
        if not self.available:
            raise EmbeddingUnavailable("fake embedder is switched off")
        return [self._vector(t) for t in texts]

    async def count_tokens(
        self, texts: Sequence[str], kind: EmbedKind = "document"
    ) -> list[int] | None:
        """Word-piece-like: each word and each punctuation mark a token, words over eight
        characters two, plus the two special tokens a BERT tokenizer adds."""
        return [
            2 + sum(2 if len(t) > 8 else 1 for t in _TOKEN.findall(text)) for text in texts
        ]

    def _vector(self, text: str) -> Vector:
        if text in self.vectors:
            return list(self.vectors[text])
        vector = [0.0] * self._dimension
        for word in _WORD.findall(text.lower()) or [""]:
            vector[_bucket(word, self._dimension)] += 1.0
        norm = math.sqrt(sum(x * x for x in vector))
        return [x / norm for x in vector]
