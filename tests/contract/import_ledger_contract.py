"""ImportLedgerPortContract: what every ImportLedgerPort (fake or PostgreSQL) does.

Subclass it and provide the fixtures `ports` (MemoryPorts), `ledger` (an ImportLedgerPort
over the same storage) and `owner` (fresh per test)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from memlane.domain.memories.cleanup import CleanupRule
from memlane.domain.model import Heat, MemoryType, Owner
from memlane.ports.portability.import_ledger import ImportLedgerPort
from memlane.ports.storage import MemoryPorts
from tests.contract.builders import T0, insert, stored

LONG_AGO = T0 - timedelta(days=400)


class ImportLedgerPortContract:
    async def test_recorded_keys_are_known_and_recording_again_changes_nothing(
        self, ports: MemoryPorts, ledger: ImportLedgerPort, owner: Owner
    ) -> None:
        await insert(ports.store, stored(owner))
        await ledger.record(owner, ["a", "b"])
        await ledger.record(owner, ["b", "c"])
        assert await ledger.known(owner, ["a", "b", "c", "d"]) == {"a", "b", "c"}
        assert await ledger.known(owner, []) == set()

    async def test_another_owners_keys_are_not_known(
        self, ports: MemoryPorts, ledger: ImportLedgerPort, owner: Owner
    ) -> None:
        other = replace(owner, user_id=owner.user_id + "-other")
        await insert(ports.store, stored(owner), stored(other))
        await ledger.record(owner, ["a"])
        assert await ledger.known(other, ["a"]) == set()

    async def test_deleting_one_memory_keeps_the_keys_erasing_the_owner_drops_them(
        self, ports: MemoryPorts, ledger: ImportLedgerPort, owner: Owner
    ) -> None:
        first, second = stored(owner), stored(owner)
        await insert(ports.store, first, second)
        await ledger.record(owner, ["a"])
        await ports.store.delete(owner, first.id)
        assert await ledger.known(owner, ["a"]) == {"a"}  # a forgotten memory stays forgotten
        await ports.store.delete_all(owner)
        assert await ledger.known(owner, ["a"]) == set()

    async def test_only_an_erasure_clears_the_keys_not_deleting_every_memory(
        self, ports: MemoryPorts, ledger: ImportLedgerPort, owner: Owner
    ) -> None:
        only = stored(owner, memory_type=MemoryType.CONTEXT, heat=Heat(0.05, 0, LONG_AGO),
                      created_at=LONG_AGO)
        await insert(ports.store, only)
        await ledger.record(owner, ["a"])
        # Cleanup takes the owner's last memory: the ledger stays, so a re-import adds nothing.
        assert await ports.maintenance.cleanup(owner, CleanupRule(0.1, 0), T0, 0.05) == 1
        assert await ledger.known(owner, ["a"]) == {"a"}
        await ledger.record(owner, ["b"])
        await ports.store.delete_all(owner)  # an erasure, with nothing left to delete
        assert await ledger.known(owner, ["a", "b"]) == set()

    async def test_only_one_import_of_an_owner_holds_the_lock(
        self, ledger: ImportLedgerPort, owner: Owner
    ) -> None:
        other = replace(owner, user_id=owner.user_id + "-other")
        async with (
            ledger.hold(owner) as first, ledger.hold(owner) as second,
            ledger.hold(other) as elsewhere,
        ):
            assert (first, second, elsewhere) == (True, False, True)
        async with ledger.hold(owner) as again:
            assert again
