"""The MemoryPorts contract on real PostgreSQL + pgvector."""

from __future__ import annotations

import pytest

from tests.contract.memory_port_contract import MemoryPortsContract

pytestmark = pytest.mark.integration


class TestPostgresMemoryPorts(MemoryPortsContract):
    """Fixtures ports, owner and dimension come from the conftests."""
