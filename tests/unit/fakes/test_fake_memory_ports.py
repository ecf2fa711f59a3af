"""The in-memory fakes pass the same MemoryPorts contract as the PostgreSQL adapters."""

from __future__ import annotations

from uuid import uuid4

import pytest

from memlane.domain.model import Owner
from memlane.ports.storage import MemoryPorts
from tests.contract.memory_port_contract import MemoryPortsContract
from tests.fakes.memory_table import fake_memory_ports


class TestFakeMemoryPorts(MemoryPortsContract):
    @pytest.fixture
    def dimension(self) -> int:
        return 8

    @pytest.fixture
    def ports(self, dimension: int) -> MemoryPorts:
        return fake_memory_ports(dimension)

    @pytest.fixture
    def owner(self) -> Owner:
        return Owner(f"tenant-{uuid4().hex[:8]}", f"user-{uuid4().hex[:8]}")
