"""Lean candidate reads for ranking: ids, scores and heat, never sealed content or embeddings."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

import asyncpg

from memlane.adapters.postgres.cosine import cosine, similarity_from_distance
from memlane.adapters.postgres.memories.lexical_reading import LexicalReading
from memlane.adapters.postgres.memories.rows import traits_of_row, vector_param
from memlane.adapters.postgres.memories.sql import SEARCH_LEXICAL_SCORED
from memlane.domain.model import Heat, MemoryType, Owner, SearchCandidate, Vector

# What ranking reads of a memory: the heat lives in `memory_heat`, the conversation place in
# the wide row. Full rows (content, embedding: 1.5 kB to decode each) are fetched later for
# the few memories chosen.
_HEAT = (
    "h.memory_type, h.base_importance, h.access_count, h.accessed_at, h.superseded_by, "
    "h.valid_until, h.provenance, h.confidence, h.valence, h.arousal, h.domain, h.cluster"
)
_COSINE = cosine("m.embedding", "$3")
_NEAREST_SIMILARITY = similarity_from_distance("n.distance")



def _dense(written: str) -> str:
    """The inner query is the floor's shape (HNSW with iterative scan, or the owner btree
    for a small owner); the heat join touches only the k rows it returns."""
    return f"""
WITH nearest AS MATERIALIZED (
    SELECT m.id, m.created_at, m.conversation_id, m.embedding <=> $3 AS distance
    FROM memories AS m
    WHERE m.tenant = $1 AND m.user_id = $2 AND m.embedding IS NOT NULL {written}
    ORDER BY m.embedding <=> $3
    LIMIT $4
)
SELECT n.id, {_NEAREST_SIMILARITY} AS score, n.created_at, n.conversation_id, {_HEAT}
FROM nearest AS n
JOIN memory_heat AS h ON h.tenant = $1 AND h.user_id = $2 AND h.id = n.id
WHERE {_NEAREST_SIMILARITY} >= $5
ORDER BY n.distance, n.id
"""


DENSE = _dense("")
# Within the time a question points at (domain/retrieval/when.py).
DENSE_WRITTEN = _dense("AND m.created_at BETWEEN $6 AND $7")

# The join to the owner's rows also drops a posting another owner's key collided into.
LEXICAL = f"""
{SEARCH_LEXICAL_SCORED}
SELECT s.id, s.score, m.created_at, m.conversation_id, {_HEAT}
FROM scored AS s
JOIN memories AS m ON m.tenant = $1 AND m.user_id = $2 AND m.id = s.id
JOIN memory_heat AS h ON h.tenant = $1 AND h.user_id = $2 AND h.id = s.id
ORDER BY s.score DESC, s.id
"""

SIMILARITIES = f"""
SELECT m.id, CASE WHEN m.embedding IS NULL THEN 0 ELSE {_COSINE} END AS score
FROM memories AS m
WHERE m.tenant = $1 AND m.user_id = $2 AND m.id = ANY($4::uuid[])
"""


def similarities_to_sql(vectors: int) -> str:
    """The cosines to `vectors` vectors ($4 on), in their order: one read instead of one
    per vector, each cosine the expression SIMILARITIES computes."""
    scores = ", ".join(
        f"CASE WHEN m.embedding IS NULL THEN 0 ELSE {cosine('m.embedding', f'${4 + at}')} END"
        for at in range(vectors)
    )
    return f"""
SELECT m.id, ARRAY[{scores}]::float8[] AS scores
FROM memories AS m
WHERE m.tenant = $1 AND m.user_id = $2 AND m.id = ANY($3::uuid[])
"""


# Lean rows of given memories (what the graph reached), scored by cosine to the query. A
# cluster's summary node is no candidate: a link to it leads to its members, not to it.
BY_ID = f"""
SELECT m.id, m.created_at, m.conversation_id, {_HEAT},
       CASE WHEN $3::vector IS NULL OR m.embedding IS NULL THEN 0 ELSE {_COSINE} END AS score
FROM memories AS m
JOIN memory_heat AS h ON h.tenant = $1 AND h.user_id = $2 AND h.id = m.id
WHERE m.tenant = $1 AND m.user_id = $2 AND m.id = ANY($4::uuid[]) AND NOT h.cluster
"""

# Up to $4 memories before and after each seed in its conversation, read along the
# conversation-order index (two short range scans per seed); the seeds themselves excluded.
NEIGHBOURS = f"""
WITH seeds AS MATERIALIZED (
    SELECT m.id, m.conversation_id, m.created_at
    FROM memories AS m
    WHERE m.tenant = $1 AND m.user_id = $2 AND m.id = ANY($5::uuid[])
      AND m.conversation_id IS NOT NULL
),
near AS (
    SELECT b.id FROM seeds AS s, LATERAL (
        SELECT m.id FROM memories AS m
        WHERE m.tenant = $1 AND m.user_id = $2 AND m.conversation_id = s.conversation_id
          AND (m.created_at, m.id) < (s.created_at, s.id)
        ORDER BY m.created_at DESC, m.id DESC
        LIMIT $4
    ) AS b
    UNION
    SELECT a.id FROM seeds AS s, LATERAL (
        SELECT m.id FROM memories AS m
        WHERE m.tenant = $1 AND m.user_id = $2 AND m.conversation_id = s.conversation_id
          AND (m.created_at, m.id) > (s.created_at, s.id)
        ORDER BY m.created_at, m.id
        LIMIT $4
    ) AS a
)
SELECT m.id, m.created_at, m.conversation_id, {_HEAT},
       CASE WHEN $3::vector IS NULL OR m.embedding IS NULL THEN 0 ELSE {_COSINE} END AS score
FROM near
JOIN memories AS m ON m.tenant = $1 AND m.user_id = $2 AND m.id = near.id
JOIN memory_heat AS h ON h.tenant = $1 AND h.user_id = $2 AND h.id = m.id
WHERE m.id <> ALL($5::uuid[])
"""


def to_candidate(record: asyncpg.Record) -> SearchCandidate:
    return SearchCandidate(
        id=record["id"],
        score=float(record["score"]),
        memory_type=MemoryType(record["memory_type"]),
        heat=Heat(record["base_importance"], record["access_count"], record["accessed_at"]),
        created_at=record["created_at"],
        conversation_id=record["conversation_id"],
        superseded_by=record["superseded_by"],
        valid_until=record["valid_until"],
        traits=traits_of_row(record),
    )


async def dense(
    connection: asyncpg.Connection, owner: Owner, embedding: Vector, limit: int,
    min_similarity: float, written: tuple[datetime, datetime] | None = None,
) -> list[SearchCandidate]:
    args = (owner.tenant, owner.user_id, vector_param(embedding), limit, min_similarity)
    records = await (
        connection.fetch(DENSE, *args) if written is None
        else connection.fetch(DENSE_WRITTEN, *args, *written)
    )
    return [to_candidate(r) for r in records]


async def lexical(
    connection: asyncpg.Connection, owner: Owner, terms: Sequence[str], limit: int,
    reading: LexicalReading,
) -> list[SearchCandidate]:
    records = await connection.fetch(
        LEXICAL, owner.tenant, owner.user_id, list(terms), limit, reading.first_depth,
        reading.postings_per_term, reading.exact_top, reading.checks,
    )
    return [to_candidate(r) for r in records]


async def neighbours(
    connection: asyncpg.Connection, owner: Owner, memory_ids: Sequence[UUID], span: int,
    embedding: Vector | None,
) -> list[SearchCandidate]:
    records = await connection.fetch(
        NEIGHBOURS, owner.tenant, owner.user_id, vector_param(embedding), span, list(memory_ids)
    )
    return [to_candidate(r) for r in records]


async def similarities(
    connection: asyncpg.Connection, owner: Owner, memory_ids: Sequence[UUID], embedding: Vector
) -> dict[UUID, float]:
    records = await connection.fetch(
        SIMILARITIES, owner.tenant, owner.user_id, vector_param(embedding), list(memory_ids)
    )
    return {r["id"]: float(r["score"]) for r in records}


async def similarities_to(
    connection: asyncpg.Connection, owner: Owner, memory_ids: Sequence[UUID],
    embeddings: Sequence[Vector],
) -> dict[UUID, tuple[float, ...]]:
    records = await connection.fetch(
        similarities_to_sql(len(embeddings)), owner.tenant, owner.user_id, list(memory_ids),
        *(vector_param(e) for e in embeddings),
    )
    return {r["id"]: tuple(r["scores"]) for r in records}


async def by_id(
    connection: asyncpg.Connection, owner: Owner, memory_ids: Sequence[UUID],
    embedding: Vector | None,
) -> list[SearchCandidate]:
    records = await connection.fetch(
        BY_ID, owner.tenant, owner.user_id, vector_param(embedding), list(memory_ids)
    )
    return [to_candidate(r) for r in records]
