"""The startup check that every stored vector comes from the configured model's space."""

from __future__ import annotations

from collections.abc import Collection

import asyncpg

from memlane.adapters.postgres.pool import connection_from
from memlane.domain.errors import EmbeddingModelMismatch

# The distinct model names, one index probe each along memories_embedding_model_idx (a
# loose index scan): a handful of probes at any table size, no table scan.
STORED_MODELS = """
WITH RECURSIVE found AS (
    (SELECT embedding_model AS name FROM memories
     WHERE embedding_model IS NOT NULL ORDER BY embedding_model LIMIT 1)
    UNION ALL
    SELECT (SELECT m.embedding_model FROM memories AS m
            WHERE m.embedding_model > found.name ORDER BY m.embedding_model LIMIT 1)
    FROM found WHERE found.name IS NOT NULL
)
SELECT name FROM found WHERE name IS NOT NULL
"""
# Only on the way to the error: how many memories hold a vector of each foreign model.
COUNT_BY_MODEL = """
SELECT embedding_model, count(*) AS memories FROM memories
WHERE embedding_model = ANY($1::text[]) AND embedding IS NOT NULL
GROUP BY embedding_model ORDER BY count(*) DESC, embedding_model
"""


# Of the names given, those with at least one vector: one index probe each, at every start of
# an installation that never chose its model (counting them would read the whole index).
WITH_VECTORS = """
SELECT n.name FROM unnest($1::text[]) AS n(name)
WHERE EXISTS (SELECT 1 FROM memories AS m WHERE m.embedding_model = n.name
              AND m.embedding IS NOT NULL)
ORDER BY n.name
"""


async def stored_embedding_models(pool: asyncpg.Pool) -> list[str]:
    """The models the stored vectors come from, by name."""
    async with connection_from(pool) as connection:
        names = [r["name"] for r in await connection.fetch(STORED_MODELS)]
        if not names:
            return []
        return [r["name"] for r in await connection.fetch(WITH_VECTORS, names)]


async def check_embedding_model(pool: asyncpg.Pool, model: str, accepted: Collection[str]) -> None:
    """Fail at startup when memories hold vectors of a model outside `accepted` (the names
    sharing `model`'s space).

    all-MiniLM-L6-v2 and multilingual-e5-small both make 384-d vectors: the column takes
    either, and nothing else would notice a search comparing a question in one space with
    memories in the other.
    """
    async with connection_from(pool) as connection:
        stored = [r["name"] for r in await connection.fetch(STORED_MODELS)]
        foreign = [name for name in stored if name not in accepted and name != model]
        if not foreign:
            return
        others = await connection.fetch(COUNT_BY_MODEL, foreign)
    if not others:
        return  # names left on rows without a vector: nothing to compare
    held = ", ".join(f"{r['embedding_model']!r} ({r['memories']} memories)" for r in others)
    previous = others[0]["embedding_model"]
    raise EmbeddingModelMismatch(
        f"the stored memories were embedded with {held}, but memory.embedding.model is "
        f"{model!r}: vectors of two models cannot be compared. Stop memlane and run "
        f"`memlane reembed` to embed every memory again with {model!r}, or set "
        f"memory.embedding.model = {previous!r} to keep serving the stored vectors"
    )
