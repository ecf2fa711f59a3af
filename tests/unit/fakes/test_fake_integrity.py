"""The in-memory FakeIntegrity passes the same IntegrityPort contract as PostgreSQL."""

from __future__ import annotations

from uuid import uuid4

import pytest

from memlane.domain.model import Owner
from memlane.ports.security.integrity import IntegrityPort
from memlane.ports.storage import MemoryPorts
from tests.contract.integrity_contract import IntegrityContract
from tests.fakes.integrity import FakeIntegrity
from tests.fakes.memory_table import fake_memory_ports


class TestFakeIntegrity(IntegrityContract):
    @pytest.fixture
    def ports(self) -> MemoryPorts:
        return fake_memory_ports(8)

    @pytest.fixture
    def integrity(self, ports: MemoryPorts) -> IntegrityPort:
        return FakeIntegrity(ports.store._table)  # type: ignore[attr-defined]

    @pytest.fixture
    def owner(self) -> Owner:
        return Owner(f"tenant-{uuid4().hex[:8]}", f"user-{uuid4().hex[:8]}")
