"""FakeImportLedger: an in-memory ImportLedgerPort over a FakeMemoryTable, as the adapter."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from memlane.domain.model import Owner
from memlane.ports.portability.import_ledger import ImportLedgerPort
from tests.fakes.memory_table import FakeMemoryTable


class FakeImportLedger(ImportLedgerPort):
    """Keys per owner, cleared by an erasure of the owner (FakeMemoryStore.delete_all, as the
    adapter's DELETE_ALL clears `import_ledger`) and by nothing else."""

    def __init__(self, table: FakeMemoryTable) -> None:
        self._table = table
        self._keys: dict[Owner, set[str]] = {}
        self._held: set[Owner] = set()
        self._erasures_seen: dict[Owner, int] = {}

    def _live(self, owner: Owner) -> set[str]:
        erasures = self._table.erasures[owner]
        if self._erasures_seen.get(owner, 0) != erasures:
            self._erasures_seen[owner] = erasures
            self._keys.pop(owner, None)
        return self._keys.setdefault(owner, set())

    @asynccontextmanager
    async def hold(self, owner: Owner) -> AsyncIterator[bool]:
        if owner in self._held:
            yield False
            return
        self._held.add(owner)
        try:
            yield True
        finally:
            self._held.discard(owner)

    async def known(self, owner: Owner, keys: Sequence[str]) -> set[str]:
        return self._live(owner) & set(keys)

    async def record(self, owner: Owner, keys: Sequence[str]) -> None:
        self._live(owner).update(keys)


def fake_import_ledger_for(ports: object) -> FakeImportLedger:
    """A FakeImportLedger over the same table as `fake_memory_ports(...)`'s fakes."""
    return FakeImportLedger(ports.store._table)  # type: ignore[attr-defined]
