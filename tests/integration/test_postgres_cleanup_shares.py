"""A cleanup of every owner runs as statements over disjoint shares of the owners."""

from __future__ import annotations

import asyncpg
import pytest

from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.domain.memories.cleanup import CleanupRule
from memlane.domain.model import Heat, MemoryType, Owner
from tests.contract.builders import T0, insert, stored

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("shares", [1, 3, 7])
async def test_every_owners_faded_memories_go_whatever_the_number_of_shares(
    pg_pool: asyncpg.Pool, owner: Owner, shares: int
) -> None:
    port = postgres_memory_ports(pg_pool, maintenance_shares=shares)
    owners = [Owner(owner.tenant, f"{owner.user_id}-{i}") for i in range(12)]
    faded = [stored(o, memory_type=MemoryType.CONTEXT, heat=Heat(0.05, 0, T0)) for o in owners]
    kept = [stored(o, heat=Heat(0.9, 0, T0)) for o in owners]
    await insert(port.store, *faded, *kept)
    assert await port.maintenance.cleanup(None, CleanupRule(0.1, 0), T0, 0.1) >= len(faded)
    for row in faded:
        assert await port.store.get(row.owner, row.id) is None
    for row in kept:
        assert await port.store.get(row.owner, row.id) is not None
