"""The IntegrityPort contract on real PostgreSQL (keyset scan, quarantine table)."""

from __future__ import annotations

import asyncpg
import pytest

from memlane.adapters.postgres.security.integrity import PostgresIntegrityAdapter
from memlane.ports.security.integrity import IntegrityPort
from tests.contract.integrity_contract import IntegrityContract

pytestmark = pytest.mark.integration


class TestPostgresIntegrity(IntegrityContract):
    """Fixtures ports and owner come from the conftests."""

    @pytest.fixture
    def integrity(self, pg_pool: asyncpg.Pool) -> IntegrityPort:
        return PostgresIntegrityAdapter(pg_pool)
