"""Deferred access recording writes, later and batched, exactly what immediate recording writes."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from uuid import uuid4

import asyncpg
import pytest

from memlane.adapters.postgres.memories.access_log import rounds, write_accesses
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.domain.memories.decay import accessed
from memlane.domain.model import Heat, MemoryType, Owner, StoredMemory
from memlane.ports.storage import MemoryPorts
from tests.contract.builders import T0, insert, stored

pytestmark = pytest.mark.integration

BASE_RATE = 0.05129329438755058  # -ln(0.95)
DAY = timedelta(days=1)
FLUSH_MS = 20


@pytest.fixture
def deferred(pg_pool: asyncpg.Pool) -> MemoryPorts:
    return postgres_memory_ports(pg_pool, dimension=384, access_flush_ms=FLUSH_MS)


def _rows(owner: Owner) -> list[StoredMemory]:
    heats = [Heat(0.9, 0, T0 - 40 * DAY), Heat(0.6, 3, T0 - 2 * DAY), Heat(0.3, 20, T0)]
    kinds = [MemoryType.FACT, MemoryType.CONTEXT, MemoryType.CORRECTION]
    return [stored(owner, memory_type=k, heat=h) for k, h in zip(kinds, heats, strict=True)]


async def test_a_deferred_access_is_not_written_until_the_flush_interval_passes(
    deferred: MemoryPorts, owner: Owner
) -> None:
    row = _rows(owner)[0]
    await insert(deferred.store, row)
    assert await deferred.maintenance.record_access(owner, [row.id], T0 + DAY, BASE_RATE) == 1
    before = await deferred.store.get(owner, row.id)
    assert before is not None and before.heat == row.heat
    await asyncio.sleep(FLUSH_MS / 1000 * 5)
    after = await deferred.store.get(owner, row.id)
    assert after is not None and after.heat.access_count == 1
    await deferred.maintenance.close()


async def test_batched_accesses_equal_the_domain_applied_one_after_another(
    deferred: MemoryPorts, owner: Owner
) -> None:
    rows = _rows(owner)
    await insert(deferred.store, *rows)
    first, second = T0 + 3 * DAY, T0 + 9 * DAY
    # Row 0 is read twice in one batch: both accesses count, in order.
    await deferred.maintenance.record_access(owner, [rows[0].id, rows[1].id], first, BASE_RATE)
    await deferred.maintenance.record_access(owner, [rows[0].id], second, BASE_RATE)
    await deferred.maintenance.close()  # flushes what is queued
    want = {
        rows[0].id: accessed(
            accessed(rows[0].heat, rows[0].memory_type, first, BASE_RATE),
            rows[0].memory_type, second, BASE_RATE,
        ),
        rows[1].id: accessed(rows[1].heat, rows[1].memory_type, first, BASE_RATE),
        rows[2].id: rows[2].heat,
    }
    for row in rows:
        got = await deferred.store.get(owner, row.id)
        assert got is not None
        assert got.heat.access_count == want[row.id].access_count
        assert got.heat.accessed_at == want[row.id].accessed_at
        assert got.heat.base_importance == pytest.approx(want[row.id].base_importance, abs=1e-9)


async def test_one_request_naming_a_memory_twice_counts_one_access(
    deferred: MemoryPorts, owner: Owner
) -> None:
    row = _rows(owner)[0]
    await insert(deferred.store, row)
    await deferred.maintenance.record_access(owner, [row.id, row.id], T0 + DAY, BASE_RATE)
    await deferred.maintenance.close()
    got = await deferred.store.get(owner, row.id)
    assert got is not None and got.heat.access_count == 1


def test_rounds_put_each_memory_at_most_once_per_round_in_arrival_order() -> None:
    one, two = uuid4(), uuid4()
    later = T0 + DAY
    accesses = [("t", "u", one, T0, 0.1), ("t", "u", two, T0, 0.1), ("t", "u", one, later, 0.1)]
    split = rounds(accesses)
    assert [[x[2] for x in part] for part in split] == [[one, two], [one]]
    assert split[1][0][3] == later


class _Statements:
    """A connection that records the statements it is sent (a transaction's BEGIN and
    COMMIT included: asyncpg sends them through `execute`)."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self._connection = connection
        self.sent: list[str] = []

    async def execute(self, query: str, *args: object) -> str:
        self.sent.append(query.split()[0].upper())
        return await self._connection.execute(query, *args)

    def transaction(self) -> object:
        self.sent.append("BEGIN")
        return self._connection.transaction()


async def test_a_batch_naming_each_memory_once_is_one_statement_without_a_transaction(
    pg_pool: asyncpg.Pool, owner: Owner, deferred: MemoryPorts
) -> None:
    rows = _rows(owner)
    await insert(deferred.store, *rows)
    later = T0 + DAY
    once = [(owner.tenant, owner.user_id, r.id, later, BASE_RATE) for r in rows]
    twice = [*once[:1], (owner.tenant, owner.user_id, rows[0].id, later + DAY, BASE_RATE)]
    async with pg_pool.acquire() as connection:
        single, repeated = _Statements(connection), _Statements(connection)
        assert await write_accesses(single, once) == 3  # type: ignore[arg-type]
        assert await write_accesses(repeated, twice) == 2  # type: ignore[arg-type]
    assert single.sent == ["UPDATE"]
    assert repeated.sent == ["BEGIN", "UPDATE", "UPDATE"]
    got = await deferred.store.get(owner, rows[0].id)
    assert got is not None and got.heat.access_count == 3
    assert got.heat.accessed_at == later + DAY
