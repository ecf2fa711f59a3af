"""The in-memory FakeFacts passes the same FactPort contract as the PostgreSQL adapter."""

from __future__ import annotations

from uuid import uuid4

import pytest

from memlane.domain.model import Owner
from memlane.ports.facts.store import FactPort
from memlane.ports.storage import MemoryPorts
from tests.contract.fact_contract import FactPortContract
from tests.fakes.facts import fake_facts_for
from tests.fakes.memory_table import fake_memory_ports


class TestFakeFacts(FactPortContract):
    @pytest.fixture
    def ports(self) -> MemoryPorts:
        return fake_memory_ports(8)

    @pytest.fixture
    def facts(self, ports: MemoryPorts) -> FactPort:
        return fake_facts_for(ports)

    @pytest.fixture
    def owner(self) -> Owner:
        return Owner(f"tenant-{uuid4().hex[:8]}", f"user-{uuid4().hex[:8]}")
