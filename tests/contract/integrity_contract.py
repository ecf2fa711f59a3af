"""IntegrityPort contract: the keyset scan covers every owner once, in order; quarantine
moves rows out of every read, once."""

from __future__ import annotations

from uuid import UUID

import pytest

from memlane.domain.model import Owner
from memlane.domain.security.integrity import RowKey, UnreadableRow
from memlane.ports.security.integrity import IntegrityPort
from memlane.ports.storage import MemoryPorts
from tests.contract.builders import T0, insert, stored


async def scan_tenant(integrity: IntegrityPort, tenant: str, batch_rows: int) -> list[RowKey]:
    """The keys of one tenant's rows, scanned in batches from just before the tenant (a
    shared database holds other tests' tenants around it)."""
    keys: list[RowKey] = []
    after: RowKey | None = (tenant, "", UUID(int=0))
    while batch := await integrity.sealed_batch(after, batch_rows):
        found = [(r.owner.tenant, r.owner.user_id, r.id) for r in batch]
        keys.extend(k for k in found if k[0] == tenant)
        if found[-1][0] != tenant:
            break
        after = found[-1]
    return keys


class IntegrityContract:
    """Fixtures `ports` and `integrity` (over the same storage) come from the concrete class."""

    @pytest.fixture
    def other_user(self, owner: Owner) -> Owner:
        return Owner(owner.tenant, owner.user_id + "-other")

    async def test_the_scan_reads_every_owners_rows_once_in_key_order(
        self, ports: MemoryPorts, integrity: IntegrityPort, owner: Owner, other_user: Owner
    ) -> None:
        rows = [stored(o, text=f"row {i}") for i in range(3) for o in (owner, other_user)]
        await insert(ports.store, *rows)
        seen = await scan_tenant(integrity, owner.tenant, 2)
        assert sorted(seen, key=lambda k: (k[0], k[1], k[2].bytes)) == seen
        assert {k[2] for k in seen} == {r.id for r in rows}
        assert len(seen) == len(rows)

    async def test_a_scanned_row_carries_its_sealed_fields_as_stored(
        self, ports: MemoryPorts, integrity: IntegrityPort, owner: Owner
    ) -> None:
        row = stored(owner, text="sealed bytes")
        await insert(ports.store, row)
        start = (owner.tenant, "", UUID(int=0))
        scanned = [r for r in await integrity.sealed_batch(start, 10) if r.id == row.id]
        assert [(bytes(r.content), bytes(r.summary), r.owner) for r in scanned] == [
            (row.content, row.summary, owner)
        ]

    async def test_quarantine_takes_rows_out_of_every_read_once(
        self, ports: MemoryPorts, integrity: IntegrityPort, owner: Owner
    ) -> None:
        bad, good = stored(owner, text="bad"), stored(owner, text="good")
        await insert(ports.store, bad, good)
        damaged = [UnreadableRow(owner, bad.id, ("content",))]
        assert await integrity.quarantine(damaged, T0) == 1
        assert await ports.store.get(owner, bad.id) is None
        assert await ports.store.get(owner, good.id) is not None
        left: set[UUID] = {k[2] for k in await scan_tenant(integrity, owner.tenant, 50)}
        assert bad.id not in left and good.id in left
        assert await integrity.quarantine(damaged, T0) == 0
        assert await integrity.quarantine([], T0) == 0
