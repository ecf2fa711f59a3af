"""The EntityPort contract on real PostgreSQL (mentions and entities go with their memories)."""

from __future__ import annotations

import asyncpg
import pytest

from memlane.adapters.postgres.entities.adapter import PostgresEntityAdapter
from memlane.ports.entities import EntityPort
from tests.contract.entity_contract import EntityPortContract

pytestmark = pytest.mark.integration


class TestPostgresEntities(EntityPortContract):
    """Fixtures ports and owner come from the conftests."""

    @pytest.fixture
    def entities(self, pg_pool: asyncpg.Pool) -> EntityPort:
        return PostgresEntityAdapter(pg_pool)
