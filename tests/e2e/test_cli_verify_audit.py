"""`memlane verify-audit` as a process: 0 for intact chains, 1 naming a tampered event."""

from __future__ import annotations

import json
import os
import subprocess
from uuid import uuid4

import asyncpg
import pytest

from memlane.adapters.postgres.security.audit import postgres_audit_ports
from memlane.domain.model import Owner
from memlane.domain.security.audit import EventKind
from tests.contract.audit_contract import entry
from tests.e2e.test_serve_process import MEMLANE, REPO

pytestmark = [pytest.mark.e2e, pytest.mark.integration]


def verify_audit(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "MEMLANE_DATABASE__URL": database_url}
    return subprocess.run(
        [MEMLANE, "verify-audit", *args], env=environment, cwd=REPO, capture_output=True,
        text=True, timeout=120,
    )


async def test_verify_audit_passes_intact_chains_and_names_a_tampered_event(
    pg_pool: asyncpg.Pool, migrated_database_url: str, owner: Owner
) -> None:
    audit = postgres_audit_ports(pg_pool)
    other = Owner(owner.tenant, owner.user_id + "-2")
    memory = uuid4()
    for who in (owner, other):
        async with audit.transactions.owner(who):
            events = await audit.log.append(who, [
                entry(memory), entry(memory, EventKind.UPDATED, minutes=1),
                entry(memory, EventKind.DELETED, minutes=2),
            ])

    intact = verify_audit(migrated_database_url, "--tenant", owner.tenant)
    assert intact.returncode == 0, intact.stderr
    assert json.loads(intact.stdout.splitlines()[0]) == {
        "owners": 2, "events": 6, "tombstones": 0, "broken": 0, "intact": True}

    # Rewrite one event's payload behind the append-only trigger's back.
    async with pg_pool.acquire() as connection, connection.transaction():
        await connection.execute("SET LOCAL session_replication_role = replica")
        await connection.execute(
            "UPDATE audit_events SET payload = 'forged'::bytea WHERE id = $1", events[1].entry.id
        )

    broken = verify_audit(migrated_database_url, "--tenant", other.tenant)
    assert broken.returncode == 1, broken.stderr
    lines = broken.stdout.splitlines()
    assert json.loads(lines[0])["broken"] == 1
    assert f"event={events[1].entry.id}" in lines[1] and "seq=2" in lines[1]
    only_first = verify_audit(migrated_database_url, "--tenant", owner.tenant,
                              "--user", owner.user_id)
    assert only_first.returncode == 0, only_first.stdout
