"""PostgresAuditAdapter: AuditPort on `audit_events`, appended inside the owner's transaction."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import AsyncIterator, Sequence
from typing import Any
from uuid import UUID

import asyncpg

from memlane.adapters.postgres.memories import affected_rows
from memlane.adapters.postgres.pool import connection_from
from memlane.adapters.postgres.security import audit_sql
from memlane.adapters.postgres.transactions import PostgresTransactionAdapter, joined
from memlane.domain.model import Owner
from memlane.domain.security import (
    AuditEntry,
    AuditEvent,
    ChainHead,
    EventKind,
    SubjectKind,
    chain,
)
from memlane.ports.security import AuditPort, AuditPorts

STREAM_PREFETCH_ROWS = 500
REMEMBERED_HEADS = 10_000  # ~100 bytes each


def _event(record: Any) -> AuditEvent:
    entry = AuditEntry(
        record["id"], SubjectKind(record["subject_kind"]), record["subject_id"],
        EventKind(record["kind"]), record["actor"], record["at"],
        None if record["payload"] is None else bytes(record["payload"]), record["related_id"],
    )
    return AuditEvent(
        Owner(record["tenant"], record["user_id"]), int(record["seq"]), entry,
        bytes(record["body_digest"]), bytes(record["prev_hash"]), bytes(record["hash"]),
    )


def _columns(owner: Owner, events: Sequence[AuditEvent]) -> tuple[Any, ...]:
    """$1-$14 of APPEND_MANY: the owner, then one array per column."""
    return (
        owner.tenant, owner.user_id,
        [e.seq for e in events], [e.entry.id for e in events],
        [e.entry.subject_kind.value for e in events],
        [e.entry.subject_id for e in events], [e.entry.related_id for e in events],
        [e.entry.kind.value for e in events], [e.entry.actor for e in events],
        [e.entry.at for e in events], [e.entry.payload for e in events],
        [e.body_digest for e in events], [e.prev_hash for e in events],
        [e.hash for e in events],
    )


class PostgresAuditAdapter(AuditPort):
    """Events in `audit_events`; the chain rule is the domain's, applied here to each batch.

    It remembers the head of the chains it appended to last, so an append is usually one
    statement (checked against the table inside it), not a read of the head and an insert."""

    def __init__(self, pool: asyncpg.Pool, remembered_heads: int = REMEMBERED_HEADS) -> None:
        self._pool = pool
        self._heads: OrderedDict[Owner, ChainHead] = OrderedDict()
        self._capacity = remembered_heads

    def _remember(self, owner: Owner, events: Sequence[AuditEvent]) -> None:
        self._heads[owner] = ChainHead(events[-1].seq, events[-1].hash)
        self._heads.move_to_end(owner)
        while len(self._heads) > self._capacity:
            self._heads.popitem(last=False)

    def _require_transaction(self, owner: Owner) -> None:
        # The guarantee "event and change commit together" holds by construction: there is
        # no way to append outside the owner's transaction (and its lock, which the chain
        # needs to stay linear).
        current = joined(self._pool)
        if current is None or current.owner != owner:
            raise RuntimeError("audit events are written inside TransactionPort.owner(owner)")

    async def append(self, owner: Owner, entries: Sequence[AuditEntry]) -> list[AuditEvent]:
        if not entries:
            return []
        self._require_transaction(owner)
        async with connection_from(self._pool) as connection:
            known = self._heads.get(owner)
            if known is not None:
                events = chain(owner, known, entries)
                status = await connection.execute(
                    audit_sql.APPEND_AFTER, *_columns(owner, events), known.seq, known.hash
                )
                if affected_rows(status) == len(events):
                    self._remember(owner, events)
                    return events
            head = await connection.fetchrow(audit_sql.HEAD, owner.tenant, owner.user_id)
            last = None if head is None else ChainHead(int(head["seq"]), bytes(head["hash"]))
            events = chain(owner, last, entries)
            await connection.execute(audit_sql.APPEND_MANY, *_columns(owner, events))
        self._remember(owner, events)
        return events

    async def history(
        self, owner: Owner, kinds: Sequence[SubjectKind], subject_id: UUID
    ) -> list[AuditEvent]:
        async with connection_from(self._pool) as connection:
            records = await connection.fetch(
                audit_sql.HISTORY, owner.tenant, owner.user_id, [k.value for k in kinds],
                subject_id,
            )
        return [_event(r) for r in records]

    async def erase(self, owner: Owner) -> int:
        self._require_transaction(owner)
        async with connection_from(self._pool) as connection:
            status = await connection.execute(audit_sql.ERASE, owner.tenant, owner.user_id)
        return affected_rows(status)

    async def events(self, tenant: str | None, user_id: str | None) -> AsyncIterator[AuditEvent]:
        # A server-side cursor needs a transaction; rows stream without loading them all.
        async with connection_from(self._pool) as connection, connection.transaction():
            cursor = connection.cursor(
                audit_sql.EVENTS, tenant, user_id, prefetch=STREAM_PREFETCH_ROWS
            )
            async for record in cursor:
                yield _event(record)


def postgres_audit_ports(pool: asyncpg.Pool) -> AuditPorts:
    """The audit log and the owner transactions on one pool (the memory adapters join them)."""
    return AuditPorts(PostgresAuditAdapter(pool), PostgresTransactionAdapter(pool))
