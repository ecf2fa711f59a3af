"""The GraphPort contract on real PostgreSQL (edges cascade with their memories)."""

from __future__ import annotations

import asyncpg
import pytest

from memlane.adapters.postgres.graph.adapter import PostgresGraphAdapter
from memlane.ports.graph import GraphPort
from tests.contract.activation_contract import ActivationWalkContract
from tests.contract.graph_contract import GraphPortContract

pytestmark = pytest.mark.integration


class TestPostgresGraph(GraphPortContract, ActivationWalkContract):
    """Fixtures ports and owner come from the conftests."""

    @pytest.fixture
    def graph(self, pg_pool: asyncpg.Pool) -> GraphPort:
        return PostgresGraphAdapter(pg_pool)
