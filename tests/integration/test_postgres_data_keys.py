"""The DataKeyPort contract on real PostgreSQL, and the root's rule on a database of its own."""

from __future__ import annotations

import asyncpg
import pytest

from memlane.adapters.postgres.security.data_keys import PostgresDataKeyAdapter
from memlane.domain.model import Owner
from memlane.domain.security.keyring import ROOT
from memlane.ports.security.keyring import DataKeyPort
from tests.contract.data_key_contract import DataKeyPortContract, wrapped

pytestmark = pytest.mark.integration


class TestPostgresDataKeys(DataKeyPortContract):
    @pytest.fixture
    def data_keys(self, pg_pool: asyncpg.Pool) -> DataKeyPort:
        return PostgresDataKeyAdapter(pg_pool)


async def test_the_root_is_created_into_an_empty_table_and_never_replaced(
    fresh_pool: asyncpg.Pool, owner: Owner
) -> None:
    store = PostgresDataKeyAdapter(fresh_pool)
    root = wrapped(ROOT)
    assert await store.create([root]) == [root]
    await store.create([wrapped(owner)])
    await store.destroy(ROOT)  # lost (a bad restore): a new root would match no index
    assert await store.create([wrapped(ROOT)]) == []
