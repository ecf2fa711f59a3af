"""The AuditPort contract on real PostgreSQL, and what the table itself refuses."""

from __future__ import annotations

from uuid import uuid4

import asyncpg
import pytest

from memlane.adapters.postgres.security.audit import postgres_audit_ports
from memlane.domain.model import Owner
from memlane.domain.security.audit_chain import verify
from memlane.ports.security.audit import AuditPorts
from tests.contract.audit_contract import AuditPortContract, entry

pytestmark = pytest.mark.integration


class TestPostgresAudit(AuditPortContract):
    """Fixture owner comes from the conftest."""

    @pytest.fixture
    def audit(self, pg_pool: asyncpg.Pool) -> AuditPorts:
        return postgres_audit_ports(pg_pool)


async def test_the_table_refuses_deleting_or_rewriting_an_event(
    pg_pool: asyncpg.Pool, owner: Owner
) -> None:
    audit = postgres_audit_ports(pg_pool)
    async with audit.transactions.owner(owner):
        await audit.log.append(owner, [entry(uuid4())])
    where = "WHERE tenant = $1 AND user_id = $2"
    for statement in (
        f"DELETE FROM audit_events {where}",
        f"UPDATE audit_events SET payload = 'x'::bytea {where}",
        f"UPDATE audit_events SET kind = 'erased', payload = NULL, actor = 'cli' {where}",
    ):
        with pytest.raises(asyncpg.IntegrityConstraintViolationError):
            await pg_pool.execute(statement, owner.tenant, owner.user_id)
    assert await pg_pool.fetchval(
        f"SELECT count(*) FROM audit_events {where} AND payload = 'sealed'::bytea",
        owner.tenant, owner.user_id,
    ) == 1


async def test_two_processes_and_a_rollback_never_fork_an_owners_chain(
    pg_pool: asyncpg.Pool, owner: Owner
) -> None:
    # Two adapters stand for two processes: each remembers the head it appended last.
    first, second = postgres_audit_ports(pg_pool), postgres_audit_ports(pg_pool)
    memory = uuid4()
    for ports in (first, second, first):
        async with ports.transactions.owner(owner):
            await ports.log.append(owner, [entry(memory)])
    with pytest.raises(LookupError):  # first remembers a head that is then rolled back
        async with first.transactions.owner(owner):
            await first.log.append(owner, [entry(memory)])
            raise LookupError
    for ports in (second, first, first):
        async with ports.transactions.owner(owner):
            await ports.log.append(owner, [entry(memory), entry(memory)])
    events = [e async for e in first.log.events(owner.tenant, owner.user_id)]
    assert [e.seq for e in events] == list(range(1, 10))
    assert verify(events).intact
