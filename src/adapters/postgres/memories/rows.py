"""Mapping between asyncpg records and StoredMemory, and the per-type decay parameters."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np
from pgvector import Vector as PgVector

from memlane.adapters.postgres.pool import Row
from memlane.domain.detail import Affect, MemoryDomain, Provenance, Traits
from memlane.domain.memories import MAX_REINFORCEMENT, REINFORCEMENT_PER_ACCESS, TYPE_DECAY
from memlane.domain.model import Heat, MemoryType, Owner, StoredMemory, Vector

# TYPE_DECAY as three parallel arrays for `unnest`: the numbers stay in the domain.
DECAY_TYPES: list[str] = [t.value for t in TYPE_DECAY]
DECAY_MODIFIERS: list[float] = [TYPE_DECAY[t].modifier for t in TYPE_DECAY]
DECAY_FLOORS: list[float] = [TYPE_DECAY[t].floor for t in TYPE_DECAY]
# The decay constants every importance statement binds after its own leading parameters:
# the per-type table, then the access bonus (migration 0055's memlane_importance).
DECAY_CONSTANTS: tuple[object, ...] = (
    DECAY_TYPES, DECAY_MODIFIERS, DECAY_FLOORS, REINFORCEMENT_PER_ACCESS, MAX_REINFORCEMENT
)


def decay_params(now: datetime, base_rate: float) -> list[object]:
    """$1-$7 of the maintenance statements in sql.py: now, base rate, DECAY_CONSTANTS."""
    return [now, base_rate, *DECAY_CONSTANTS]


def vector_param(embedding: Vector | None) -> np.ndarray | None:
    """A vector for pgvector's binary codec (never a float list cast in SQL)."""
    return None if embedding is None else np.asarray(embedding, dtype=np.float32)


def vector_array_param(embeddings: Sequence[Vector | None]) -> list[PgVector | None]:
    """Vectors for a `vector[]` parameter (asyncpg would read a bare ndarray as a sub-array)."""
    return [None if e is None else PgVector(np.asarray(e, dtype=np.float32)) for e in embeddings]


def _embedding(value: Any) -> tuple[float, ...] | None:
    if value is None:
        return None
    # ndarray.tolist() builds the Python floats in C: 3x faster than a generator, and a
    # dense search decodes 80 of these per query.
    return tuple(value.to_numpy().tolist())


def to_stored(record: Row) -> StoredMemory:
    """A StoredMemory from one row of sql.COLUMNS."""
    return StoredMemory(
        id=record["id"],
        owner=Owner(record["tenant"], record["user_id"]),
        memory_type=MemoryType(record["memory_type"]),
        content=bytes(record["content"]),
        summary=bytes(record["summary"]),
        importance=record["importance"],
        heat=Heat(
            base_importance=record["base_importance"],
            access_count=record["access_count"],
            accessed_at=record["accessed_at"],
        ),
        created_at=record["created_at"],
        updated_at=record["updated_at"],
        conversation_id=record["conversation_id"],
        tags=tuple(record["tags"]),
        metadata=record["metadata"],
        pinned=record["pinned"],
        embedding=_embedding(record["embedding"]),
        embedding_model=record["embedding_model"],
        keywords=tuple(record["keywords"]),
        attributes=None if record["attributes"] is None else bytes(record["attributes"]),
        topic_tokens=_topic_tokens(record.get("topic_tokens")),
        abstract=_bytes(record.get("abstract")),
        overview=_bytes(record.get("overview")),
        traits=traits_of_row(record),
        superseded_by=record.get("superseded_by"),
        valid_until=record.get("valid_until"),
    )


def _bytes(value: Any) -> bytes | None:
    return None if value is None else bytes(value)


def traits_of_row(record: Row) -> Traits | None:
    """The traits of a row that selects h.provenance and the rest (None: stored before
    they were kept, or a statement that does not read them)."""
    provenance = record.get("provenance")
    if provenance is None:
        return None
    valence, arousal = record.get("valence"), record.get("arousal")
    return Traits(
        Provenance(provenance),
        float(record["confidence"]),
        None if valence is None or arousal is None else Affect(float(valence), float(arousal)),
        MemoryDomain(record["domain"]),
        bool(record.get("cluster")),
    )


def trait_params(stored: Sequence[StoredMemory]) -> tuple[list[Any], ...]:
    """The tier and trait arrays ($22-$29 of INSERT_MANY / REPLACE_MANY)."""
    traits = [s.traits for s in stored]
    return (
        [s.abstract for s in stored],
        [s.overview for s in stored],
        [None if t is None else t.provenance.value for t in traits],
        [None if t is None else t.confidence for t in traits],
        [None if t is None or t.affect is None else t.affect.valence for t in traits],
        [None if t is None or t.affect is None else t.affect.arousal for t in traits],
        [None if t is None else t.domain.value for t in traits],
        [None if t is None else t.cluster for t in traits],
    )


def _topic_tokens(value: Any) -> tuple[str, ...] | None:
    return None if value is None else tuple(value)


def to_stored_many(records: Sequence[Row]) -> list[StoredMemory]:
    return [to_stored(r) for r in records]


def affected_rows(status: str) -> int:
    """The row count of a command status such as 'UPDATE 3'."""
    return int(status.rsplit(" ", 1)[-1])


def key_arrays(keys: Sequence[tuple[Owner, Any]]) -> tuple[list[str], list[str], list[Any]]:
    """(owner, id) pairs as the tenant, user_id and id arrays of an `unnest` batch."""
    return [o.tenant for o, _ in keys], [o.user_id for o, _ in keys], [i for _, i in keys]


async def keyset_fetch(
    connection: Any, first: str, after_sql: str, limit: int, after: tuple[Any, ...] | None
) -> list[Any]:
    """One batch of a scan in (tenant, user_id, id) order: `first` ($1 limit) from the
    start, else `after_sql` ($1 limit, $2-$4 the last key read)."""
    if after is None:
        return list(await connection.fetch(first, limit))
    return list(await connection.fetch(after_sql, limit, *after))
