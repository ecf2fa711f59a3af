"""PostgresWriteSession: one owner's writes under its advisory lock, a statement per batch."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any
from uuid import UUID

import asyncpg

from memlane.adapters.postgres.memories import sql, write_sql
from memlane.adapters.postgres.memories.rows import (
    to_stored,
    to_stored_many,
    trait_params,
    vector_array_param,
)
from memlane.adapters.postgres.vector_checks import dimension_errors
from memlane.domain.errors import MemoryNotFound
from memlane.domain.model import DenseHit, Nearby, Owner, StoredMemory, Vector
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
        [None if s.attributes is None else bytes(s.attributes) for s in stored],
        [None if s.topic_tokens is None else json.dumps(list(s.topic_tokens)) for s in stored],
        *trait_params(stored),
        [s.arrived_at or s.updated_at for s in stored],  # REPLACE_MANY leaves both as they are
        [s.imported for s in stored],
    )


class PostgresWriteSession(MemoryWriteSession):
    """Writes of one owner on one connection, inside a transaction holding the owner's lock."""

    def __init__(self, connection: asyncpg.Connection, owner: Owner) -> None:
        self._connection = connection
        self._owner = owner

    def _check_owner(self, stored: Sequence[StoredMemory]) -> None:
        if any(s.owner != self._owner for s in stored):
            raise ValueError("a write session only writes its own owner's memories")

    async def nearest_many(
        self, embeddings: Sequence[Vector], neighbours: int = 1
    ) -> list[Nearby]:
        if not embeddings:
            return []
        found = [Nearby(None)] * len(embeddings)
        async with dimension_errors():
            records = await self._connection.fetch(
                write_sql.NEAREST_MANY,
                self._owner.tenant,
                self._owner.user_id,
                vector_array_param(embeddings),
                write_sql.SCAN_ONCE_MAX_MEMORIES,
                max(1, neighbours),
            )
        for record in records:
            near = tuple(
                zip(record["near_ids"], map(float, record["near_similarities"]), strict=True)
            )
            best = DenseHit(to_stored(record), float(record["similarity"]))
            found[int(record["ord"]) - 1] = Nearby(best, near[: max(0, neighbours)])
        return found

    async def read_many(self, memory_ids: Sequence[UUID]) -> list[StoredMemory]:
        if not memory_ids:
            return []
        records = await self._connection.fetch(
            sql.GET_MANY_UNINDEXED, self._owner.tenant, self._owner.user_id, list(memory_ids)
        )
        return to_stored_many(records)

    async def insert_many(self, stored: Sequence[StoredMemory]) -> None:
        if not stored:
            return
        self._check_owner(stored)
        async with dimension_errors():
            await self._connection.execute(
                write_sql.INSERT_MANY,
                self._owner.tenant,
                self._owner.user_id,
                *batch_params(stored),
            )

    async def replace_many(self, stored: Sequence[StoredMemory]) -> None:
        if not stored:
            return
        self._check_owner(stored)
        # A savepoint, so a missing row leaves nothing half-written in the session.
        async with self._connection.transaction(), dimension_errors():
            count = await self._connection.fetchval(
                write_sql.REPLACE_MANY,
                self._owner.tenant,
                self._owner.user_id,
                *batch_params(stored),
            )
            if count != len({s.id for s in stored}):
                gone = await self._connection.fetchval(
                    write_sql.FIRST_MISSING,
                    self._owner.tenant,
                    self._owner.user_id,
                    [s.id for s in stored],
                )
                raise MemoryNotFound(gone)

