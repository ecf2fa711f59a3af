"""The in-memory FakeImportLedger passes the same contract as the PostgreSQL adapter."""

from __future__ import annotations

from uuid import uuid4

import pytest

from memlane.domain.model import Owner
from memlane.ports.portability.import_ledger import ImportLedgerPort
from memlane.ports.storage import MemoryPorts
from tests.contract.import_ledger_contract import ImportLedgerPortContract
from tests.fakes.import_ledger import fake_import_ledger_for
from tests.fakes.memory_table import fake_memory_ports


class TestFakeImportLedger(ImportLedgerPortContract):
    @pytest.fixture
    def ports(self) -> MemoryPorts:
        return fake_memory_ports(8)

    @pytest.fixture
    def ledger(self, ports: MemoryPorts) -> ImportLedgerPort:
        return fake_import_ledger_for(ports)

    @pytest.fixture
    def owner(self) -> Owner:
        return Owner(f"tenant-{uuid4().hex[:8]}", f"user-{uuid4().hex[:8]}")
