"""The in-memory FakeGraph passes the same GraphPort contract as the PostgreSQL adapter."""

from __future__ import annotations

from uuid import uuid4

import pytest

from memlane.domain.model import Owner
from memlane.ports.graph import GraphPort
from memlane.ports.storage import MemoryPorts
from tests.contract.activation_contract import ActivationWalkContract
from tests.contract.graph_contract import GraphPortContract
from tests.fakes.graph import fake_graph_for
from tests.fakes.memory_table import fake_memory_ports


class TestFakeGraph(GraphPortContract, ActivationWalkContract):
    @pytest.fixture
    def ports(self) -> MemoryPorts:
        return fake_memory_ports(8)

    @pytest.fixture
    def graph(self, ports: MemoryPorts) -> GraphPort:
        return fake_graph_for(ports)

    @pytest.fixture
    def owner(self) -> Owner:
        return Owner(f"tenant-{uuid4().hex[:8]}", f"user-{uuid4().hex[:8]}")
