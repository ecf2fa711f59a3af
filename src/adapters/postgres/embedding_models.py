"""The startup check that every stored vector comes from the configured embedding model."""

from __future__ import annotations

import asyncpg

from memlane.adapters.postgres.pool import connection_from
from memlane.domain.errors import EmbeddingModelMismatch

# Both ranges run along memories_embedding_model_idx: no table scan when all is well.
ANY_OTHER_MODEL = """
SELECT embedding_model FROM memories
WHERE (embedding_model < $1 OR embedding_model > $1) AND embedding IS NOT NULL
LIMIT 1
"""
# Only on the way to the error: which models, and how many memories each.
OTHER_MODELS = """
SELECT embedding_model, count(*) AS memories FROM memories
WHERE embedding_model IS DISTINCT FROM $1 AND embedding IS NOT NULL
GROUP BY embedding_model ORDER BY count(*) DESC, embedding_model
"""


async def check_embedding_model(pool: asyncpg.Pool, model: str) -> None:
    """Fail at startup when memories hold vectors of another model than `model`.

    All-MiniLM-L6-v2 and multilingual-e5-small both make 384-d vectors: the column takes
    either, and nothing else would notice a search comparing a question in one space with
    memories in the other.
    """
    async with connection_from(pool) as connection:
        if await connection.fetchval(ANY_OTHER_MODEL, model) is None:
            return
        others = await connection.fetch(OTHER_MODELS, model)
    stored = ", ".join(f"{r['embedding_model']!r} ({r['memories']} memories)" for r in others)
    previous = others[0]["embedding_model"]
    raise EmbeddingModelMismatch(
        f"the stored memories were embedded with {stored}, but memory.embedding.model is "
        f"{model!r}: vectors of two models cannot be compared. Stop memlane and run "
        f"`memlane reembed` to embed every memory again with {model!r}, or set "
        f"memory.embedding.model = {previous!r} to keep serving the stored vectors"
    )
