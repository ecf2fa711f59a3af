"""`memlane verify` beyond memories: a damaged fact or audit payload is named, by kind and id,
and the report is not clean while it stays."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from uuid import UUID

import asyncpg
import pytest

from memlane.adapters.encryption.xchacha import XChaChaEncryptionAdapter
from memlane.adapters.facts.heuristic import HeuristicFactExtractor
from memlane.adapters.keywords.snowball import SnowballKeywordAdapter
from memlane.adapters.postgres.facts.adapter import PostgresFactAdapter
from memlane.adapters.postgres.facts.scan import PostgresFactScanAdapter
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.adapters.postgres.pool import create_pool
from memlane.adapters.postgres.security.audit import postgres_audit_ports
from memlane.adapters.postgres.security.integrity import PostgresIntegrityAdapter
from memlane.composition.services import memory_service as build_memory_service
from memlane.domain.facts.records import NewFact
from memlane.domain.model import NewMemory, Owner
from memlane.domain.policy import MemoryPolicy
from memlane.ports.facts.store import FactPorts
from memlane.service.security.sealing import Sealer
from memlane.service.security.verification import Verifier
from tests.fakes.embedder import FakeEmbedder

pytestmark = pytest.mark.integration

OWNER = Owner("t", "alice")
KEY = XChaChaEncryptionAdapter(secrets.token_bytes(32))
FLIP = "UPDATE {table} SET {column} = set_byte({column}, 40, get_byte({column}, 40) # 1) " \
    "WHERE id = $1"


@pytest.fixture
async def pool(fresh_database_url: str) -> AsyncIterator[asyncpg.Pool]:
    pool = await create_pool(fresh_database_url, min_size=1, max_size=4)
    try:
        yield pool
    finally:
        await pool.close()


def _verifier(pool: asyncpg.Pool) -> Verifier:
    return Verifier(
        PostgresIntegrityAdapter(pool), Sealer(KEY, SnowballKeywordAdapter(), 0.1),
        encryption=KEY, facts=PostgresFactScanAdapter(pool),
        audit=postgres_audit_ports(pool).log,
    )


async def test_verify_names_the_damaged_fact_and_audit_event_and_nothing_else(
    pool: asyncpg.Pool,
) -> None:
    service = build_memory_service(
        memories=postgres_memory_ports(pool), embedder=FakeEmbedder(dimension=384),
        encryption=KEY, keywords=SnowballKeywordAdapter(), policy=MemoryPolicy(),
        audit=postgres_audit_ports(pool),
        facts=FactPorts(PostgresFactAdapter(pool), HeuristicFactExtractor()),
    )
    await service.remember(OWNER, NewMemory(content="I work as a nurse in Lisbon"))
    fact = await service.facts.state(OWNER, NewFact(relation="likes", object="green tea"))
    clean = await _verifier(pool).verify(batch_rows=1)
    assert clean.clean and clean.facts_checked >= 2 and clean.events_checked >= 2

    event = await pool.fetchval(
        "SELECT id FROM audit_events WHERE payload IS NOT NULL ORDER BY seq LIMIT 1"
    )
    await pool.execute(FLIP.format(table="facts", column="object"), fact.id)
    async with pool.acquire() as connection, connection.transaction():
        await connection.execute("ALTER TABLE audit_events DISABLE TRIGGER USER")
        await connection.execute(FLIP.format(table="audit_events", column="payload"), event)
        await connection.execute("ALTER TABLE audit_events ENABLE TRIGGER USER")

    report = await _verifier(pool).verify(batch_rows=1)

    assert [(r.memory_id, r.fields) for r in report.unreadable_facts] == [(fact.id, ("object",))]
    assert [(r.memory_id, r.owner) for r in report.unreadable_events] == [(UUID(str(event)), OWNER)]
    assert report.unreadable == () and not report.clean
