"""Vector arithmetic without a database: cosine similarity."""

from __future__ import annotations

import math

from memlane.domain.model import Vector


def cosine(a: Vector, b: Vector) -> float:
    """Cosine similarity in [-1, 1]; 0 when either vector is all zeros or sizes differ."""
    if len(a) != len(b):
        return 0.0
    dot = math.fsum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(math.fsum(x * x for x in a)) * math.sqrt(math.fsum(y * y for y in b))
    return dot / norm if norm else 0.0


def cosine_or_zero(query: Vector | None, embedding: Vector | None) -> float:
    """Cosine, or 0.0 when the query or the memory has no vector."""
    if query is None or embedding is None:
        return 0.0
    return cosine(query, embedding)
