"""The in-memory FakeMemoryPort passes the same MemoryPort contract as the PostgreSQL adapter."""

from __future__ import annotations

from uuid import uuid4

import pytest

from memlane.domain.model import Owner
from tests.contract.memory_port_contract import MemoryPortContract
from tests.fakes.memory_port import FakeMemoryPort


class TestFakeMemoryPort(MemoryPortContract):
    @pytest.fixture
    def dimension(self) -> int:
        return 8

    @pytest.fixture
    def memory_port(self, dimension: int) -> FakeMemoryPort:
        return FakeMemoryPort(dimension=dimension)

    @pytest.fixture
    def owner(self) -> Owner:
        return Owner(f"tenant-{uuid4().hex[:8]}", f"user-{uuid4().hex[:8]}")
