"""The ImportLedgerPort contract on real PostgreSQL (the erase trigger, the advisory lock)."""

from __future__ import annotations

import asyncpg
import pytest

from memlane.adapters.postgres.portability.import_ledger import PostgresImportLedgerAdapter
from memlane.ports.portability.import_ledger import ImportLedgerPort
from tests.contract.import_ledger_contract import ImportLedgerPortContract

pytestmark = pytest.mark.integration


class TestPostgresImportLedger(ImportLedgerPortContract):
    """Fixtures ports and owner come from the conftests."""

    @pytest.fixture
    def ledger(self, pg_pool: asyncpg.Pool) -> ImportLedgerPort:
        return PostgresImportLedgerAdapter(pg_pool)
