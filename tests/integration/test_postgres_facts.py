"""The FactPort contract on real PostgreSQL (facts go with their memories, by trigger)."""

from __future__ import annotations

import asyncpg
import pytest

from memlane.adapters.postgres.facts.adapter import PostgresFactAdapter
from memlane.ports.facts.store import FactPort
from tests.contract.fact_contract import FactPortContract

pytestmark = pytest.mark.integration


class TestPostgresFacts(FactPortContract):
    """Fixtures ports and owner come from the conftests."""

    @pytest.fixture
    def facts(self, pg_pool: asyncpg.Pool) -> FactPort:
        return PostgresFactAdapter(pg_pool)
