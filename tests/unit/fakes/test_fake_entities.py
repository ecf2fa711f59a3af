"""The in-memory FakeEntities passes the same EntityPort contract as the PostgreSQL adapter."""

from __future__ import annotations

from uuid import uuid4

import pytest

from memlane.domain.model import Owner
from memlane.ports.entities import EntityPort
from memlane.ports.storage import MemoryPorts
from tests.contract.entity_contract import EntityPortContract
from tests.fakes.entities import fake_entities_for
from tests.fakes.memory_table import fake_memory_ports


class TestFakeEntities(EntityPortContract):
    @pytest.fixture
    def ports(self) -> MemoryPorts:
        return fake_memory_ports(8)

    @pytest.fixture
    def entities(self, ports: MemoryPorts) -> EntityPort:
        return fake_entities_for(ports)

    @pytest.fixture
    def owner(self) -> Owner:
        return Owner(f"tenant-{uuid4().hex[:8]}", f"user-{uuid4().hex[:8]}")
