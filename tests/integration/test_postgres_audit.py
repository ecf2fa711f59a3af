"""The AuditPort contract on real PostgreSQL, and what the table itself refuses."""

from __future__ import annotations

from uuid import uuid4

import asyncpg
import pytest

from memlane.adapters.postgres.audit_adapter import postgres_audit_ports
from memlane.domain.model import Owner
from memlane.ports.audit import AuditPorts
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
