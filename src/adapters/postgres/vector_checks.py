"""Query vectors of the wrong size: refused before the database sees them, or mapped after."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg

from memlane.domain.errors import EmbeddingDimensionMismatch
from memlane.domain.model import Vector

REEMBED_HINT = "run `memlane reembed` after changing the embedding model"


def check_query_dimension(embedding: Vector, dimension: int | None) -> None:
    """An empty user's search would otherwise succeed with the wrong model."""
    if dimension is not None and len(embedding) != dimension:
        raise EmbeddingDimensionMismatch(
            f"query vector has {len(embedding)} dimensions, the database stores "
            f"{dimension}; {REEMBED_HINT}"
        )


@asynccontextmanager
async def dimension_errors() -> AsyncIterator[None]:
    """A vector of the wrong size is a configuration problem, not a bad query."""
    try:
        yield
    except asyncpg.DataError as exc:
        if "dimensions" in str(exc):
            raise EmbeddingDimensionMismatch(f"{exc}; {REEMBED_HINT}") from exc
        raise
