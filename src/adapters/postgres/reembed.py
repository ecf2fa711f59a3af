"""Resizing the embedding column for a new model: every embedding dropped, index rebuilt."""

from __future__ import annotations

import asyncpg

from memlane.adapters.postgres.pool import connection_from

DROP_HNSW = "DROP INDEX IF EXISTS memories_embedding_hnsw_idx"
# USING NULL: old vectors mean nothing in the new model's space; backfill embeds them again.
RESIZE_COLUMN = (
    "ALTER TABLE memories ALTER COLUMN embedding TYPE vector({dimension}) USING NULL"
)
# A new column type takes the type's default storage (EXTERNAL for vector): migration 0051's.
KEEP_INLINE = "ALTER TABLE memories ALTER COLUMN embedding SET STORAGE MAIN"
CLEAR_MODEL = "UPDATE memories SET embedding_model = NULL WHERE embedding_model IS NOT NULL"
# Quarantined memories keep their vector as an array (migration 0095); it is the old model's
# too, and would come back with the row if a restored key ever lets it out again.
CLEAR_QUARANTINED = (
    "UPDATE memory_quarantine SET embedding = NULL, embedding_model = NULL "
    "WHERE embedding IS NOT NULL OR embedding_model IS NOT NULL"
)
CREATE_HNSW = (
    "CREATE INDEX memories_embedding_hnsw_idx ON memories "
    "USING hnsw (embedding vector_cosine_ops)"
)
MAX_DIMENSION = 16_000


async def reset_embeddings(pool: asyncpg.Pool, dimension: int) -> None:
    """Drop every embedding (of live and of quarantined memories) and size the column for
    `dimension`, in one transaction."""
    if not 1 <= dimension <= MAX_DIMENSION:
        raise ValueError(f"embedding dimension must be within 1..{MAX_DIMENSION}")
    async with connection_from(pool) as connection, connection.transaction():
        await connection.execute(DROP_HNSW)
        await connection.execute(RESIZE_COLUMN.format(dimension=int(dimension)))
        await connection.execute(KEEP_INLINE)
        await connection.execute(CLEAR_MODEL)
        await connection.execute(CLEAR_QUARANTINED)
        await connection.execute(CREATE_HNSW)
