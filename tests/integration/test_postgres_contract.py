"""The MemoryPort contract on real PostgreSQL + pgvector."""

from __future__ import annotations

import pytest

from tests.contract.memory_port_contract import MemoryPortContract

pytestmark = pytest.mark.integration


class TestPostgresMemoryPort(MemoryPortContract):
    """Fixtures memory_port, owner and dimension come from the conftests."""
