"""On real PostgreSQL an event and the change it records commit or roll back together, and
concurrent writers of one owner keep its chain linear."""

from __future__ import annotations

import asyncio
import os
from dataclasses import replace
from uuid import UUID

import asyncpg
import pytest

from memlane.adapters.embedding.onnx import OnnxEmbeddingAdapter
from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.adapters.postgres.security.audit import postgres_audit_ports
from memlane.composition.services import memory_service as build_memory_service
from memlane.domain.errors import MemoryNotFound
from memlane.domain.model import MemoryPatch, NewMemory, Owner
from memlane.domain.policy import MemoryPolicy
from memlane.domain.security.audit import EventKind, SubjectKind
from memlane.ports.security.audit import AuditPorts
from memlane.ports.storage import MemoryPorts
from memlane.service.memory_service import MemoryService
from memlane.service.security.histories import AuditService
from tests.contract.audit_contract import entry
from tests.contract.builders import stored

pytestmark = pytest.mark.integration


@pytest.fixture
def audit(pg_pool: asyncpg.Pool) -> AuditPorts:
    return postgres_audit_ports(pg_pool)


async def kinds(audit: AuditPorts, owner: Owner, subject: UUID) -> list[EventKind]:
    return [e.entry.kind for e in await audit.log.history(owner, [SubjectKind.MEMORY], subject)]


async def test_a_failed_change_takes_its_events_with_it(
    ports: MemoryPorts, audit: AuditPorts, owner: Owner
) -> None:
    row = stored(owner)
    with pytest.raises(LookupError):
        async with audit.transactions.owner(owner):
            async with ports.store.write_session(owner) as session:
                await session.insert_many([row])
            await audit.log.append(owner, [entry(row.id)])
            raise LookupError("something after the write failed")
    assert await ports.store.get(owner, row.id) is None
    assert await kinds(audit, owner, row.id) == []


async def test_an_event_that_cannot_be_stored_undoes_the_change(
    ports: MemoryPorts, audit: AuditPorts, owner: Owner
) -> None:
    row = stored(owner)
    async with audit.transactions.owner(owner):
        async with ports.store.write_session(owner) as session:
            await session.insert_many([row])
        first = await audit.log.append(owner, [entry(row.id)])
    reused = replace(entry(row.id, EventKind.DELETED), id=first[0].entry.id)
    with pytest.raises(asyncpg.UniqueViolationError):
        async with audit.transactions.owner(owner):
            assert await ports.store.delete(owner, row.id)  # joins the transaction
            await audit.log.append(owner, [reused])  # an event id that exists: refused
    assert await ports.store.get(owner, row.id) is not None
    assert await kinds(audit, owner, row.id) == [EventKind.CREATED]


async def test_a_task_started_inside_a_transaction_does_not_share_its_connection(
    ports: MemoryPorts, audit: AuditPorts, owner: Owner, pg_pool: asyncpg.Pool
) -> None:
    row = stored(owner)
    # Two connections open beforehand: a connection opening inside the transaction may wait
    # for it (the postings check of pool.init_connection), and this test waits for the task.
    async with pg_pool.acquire(), pg_pool.acquire():
        pass
    async with audit.transactions.owner(owner):
        async with ports.store.write_session(owner) as session:
            await session.insert_many([row])
        assert await ports.store.get(owner, row.id) is not None  # this task: inside
        outside = await asyncio.create_task(ports.store.get(owner, row.id))
        assert outside is None  # another task: its own connection, not yet committed
    assert await ports.store.get(owner, row.id) is not None


@pytest.fixture
def audited(pg_pool: asyncpg.Pool, embedder: OnnxEmbeddingAdapter,
            audit: AuditPorts) -> tuple[MemoryService, AuditService]:
    encryption = XChaChaEncryptionAdapter(os.urandom(32))
    ports = postgres_memory_ports(pg_pool, dimension=embedder.dimension)
    service = build_memory_service(ports, embedder, encryption, SnowballKeywordAdapter(),
                            MemoryPolicy(), audit=audit)
    return service, AuditService(audit, ports.store, encryption)


async def test_concurrent_writers_of_one_owner_keep_one_linear_chain(
    audited: tuple[MemoryService, AuditService], owner: Owner
) -> None:
    service, history = audited
    texts = [f"Note {i}: the {w} is in drawer {i}" for i, w in enumerate(
        ["stapler", "passport", "charger", "torch", "receipt", "spare key", "map", "stamp"])]
    results = await asyncio.gather(
        *(service.remember(owner, NewMemory(t, importance=0.5)) for t in texts))
    await asyncio.gather(*(service.update(owner, r.memory.id, MemoryPatch(pinned=True))
                           for r in results))
    report = await history.verify(owner.tenant, owner.user_id)
    assert report.intact and report.events == 2 * len(texts)


async def test_a_service_update_of_a_vanished_memory_records_nothing(
    audited: tuple[MemoryService, AuditService], owner: Owner
) -> None:
    service, history = audited
    memory = (await service.remember(owner, NewMemory("My bike is blue"))).memory
    await service.delete(owner, memory.id)
    with pytest.raises(MemoryNotFound):
        await service.update(owner, memory.id, MemoryPatch(content="My bike is red"))
    assert [e.kind for e in await history.memory_history(owner, memory.id)] == [
        EventKind.CREATED, EventKind.DELETED]
