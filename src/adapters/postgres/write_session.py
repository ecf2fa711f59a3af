"""PostgresWriteSession: one owner's writes under its advisory lock, a statement per batch."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import asyncpg

from memlane.adapters.postgres import write_sql
from memlane.adapters.postgres.rows import to_stored, vector_array_param
from memlane.domain.errors import EmbeddingDimensionMismatch, MemoryNotFound
from memlane.domain.model import DenseHit, Owner, StoredMemory, Vector
from memlane.ports.memories import MemoryWriteSession


def batch_params(stored: Sequence[StoredMemory]) -> tuple[Any, ...]:
    """The column arrays of INSERT_MANY / REPLACE_MANY ($3.. in write_sql's order)."""
    return (
        [s.id for s in stored],
        [s.memory_type.value for s in stored],
        [bytes(s.content) for s in stored],
        [bytes(s.summary) for s in stored],
        [s.conversation_id for s in stored],
        [json.dumps(list(s.tags)) for s in stored],
        [json.dumps(dict(s.metadata)) for s in stored],
        [s.pinned for s in stored],
        vector_array_param([s.embedding for s in stored]),
        [s.embedding_model for s in stored],
        [json.dumps(list(s.keywords)) for s in stored],
        [s.created_at for s in stored],
        [s.updated_at for s in stored],
        [float(s.importance) for s in stored],
        [float(s.heat.base_importance) for s in stored],
        [int(s.heat.access_count) for s in stored],
        [s.heat.accessed_at for s in stored],
    )


class PostgresWriteSession(MemoryWriteSession):
    """Writes of one owner on one connection, inside a transaction holding the owner's lock."""

    def __init__(self, connection: asyncpg.Connection, owner: Owner) -> None:
        self._connection = connection
        self._owner = owner

    def _check_owner(self, stored: Sequence[StoredMemory]) -> None:
        if any(s.owner != self._owner for s in stored):
            raise ValueError("a write session only writes its own owner's memories")

    async def nearest_many(self, embeddings: Sequence[Vector]) -> list[DenseHit | None]:
        if not embeddings:
            return []
        found: list[DenseHit | None] = [None] * len(embeddings)
        try:
            records = await self._connection.fetch(
                write_sql.NEAREST_MANY,
                self._owner.tenant,
                self._owner.user_id,
                vector_array_param(embeddings),
                write_sql.SCAN_ONCE_MAX_MEMORIES,
            )
        except asyncpg.DataError as exc:
            raise _dimension_error(exc) from exc
        for record in records:
            found[int(record["ord"]) - 1] = DenseHit(to_stored(record), float(record["similarity"]))
        return found

    async def insert_many(self, stored: Sequence[StoredMemory]) -> None:
        if not stored:
            return
        self._check_owner(stored)
        try:
            await self._connection.execute(
                write_sql.INSERT_MANY,
                self._owner.tenant,
                self._owner.user_id,
                *batch_params(stored),
            )
        except asyncpg.DataError as exc:
            raise _dimension_error(exc) from exc

    async def replace_many(self, stored: Sequence[StoredMemory]) -> None:
        if not stored:
            return
        self._check_owner(stored)
        # A savepoint, so a missing row leaves nothing half-written in the session.
        async with self._connection.transaction():
            try:
                count = await self._connection.fetchval(
                    write_sql.REPLACE_MANY,
                    self._owner.tenant,
                    self._owner.user_id,
                    *batch_params(stored),
                )
            except asyncpg.DataError as exc:
                raise _dimension_error(exc) from exc
            if count != len({s.id for s in stored}):
                gone = await self._connection.fetchval(
                    write_sql.FIRST_MISSING,
                    self._owner.tenant,
                    self._owner.user_id,
                    [s.id for s in stored],
                )
                raise MemoryNotFound(gone)


def _dimension_error(exc: asyncpg.DataError) -> Exception:
    """A vector of the wrong size is a configuration problem, not a bad query."""
    if "dimensions" in str(exc):
        return EmbeddingDimensionMismatch(
            f"{exc}; run `memlane reembed` after changing the embedding model"
        )
    return exc
