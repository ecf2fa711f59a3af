"""The SealedFieldsPort and LegacyRowsPort contracts on real PostgreSQL, each test on a
database of its own (the counts are over the whole installation)."""

from __future__ import annotations

from uuid import UUID, uuid4

import asyncpg
import pytest

from memlane.adapters.postgres.portability.legacy_rows import PostgresLegacyRowsAdapter
from memlane.adapters.postgres.security.sealed_fields import PostgresSealedFieldsAdapter
from memlane.domain.model import Owner
from tests.contract.legacy_rows_contract import LegacyRowsContract
from tests.contract.sealed_fields_contract import V2, SealedFieldsContract, Seed

pytestmark = pytest.mark.integration

ADD_MEMORY = """
INSERT INTO memories (tenant, user_id, id, memory_type, content, summary, tags,
                      conversation_id, created_at, updated_at)
VALUES ($1, $2, $3, 'fact', $4, $5, ARRAY['a tag'], 'chat', now(), now())
"""
ADD_QUARANTINED = """
INSERT INTO memory_quarantine (tenant, user_id, id, unreadable, quarantined_at, memory_type,
    content, summary, conversation_id, tags, metadata, pinned, created_at, updated_at)
VALUES ($1, $2, $3, ARRAY['content'], now(), 'fact', $4, $4, 'chat', ARRAY['a tag'], '{}',
        false, now(), now())
"""
ADD_FACT = """
INSERT INTO facts (tenant, user_id, id, subject, object, subject_index, object_index, relation,
                   fact_type, time_span, confidence, valid_from, created_at, updated_at)
VALUES ($1, $2, $3, $4, $4, 's', 'o', $5, 'trait', 'current', 0.9, now(), now(), now())
"""


class TestPostgresSealedFields(SealedFieldsContract):
    @pytest.fixture
    def fields(self, fresh_pool: asyncpg.Pool) -> PostgresSealedFieldsAdapter:
        return PostgresSealedFieldsAdapter(fresh_pool)

    @pytest.fixture
    def seed(self, fresh_pool: asyncpg.Pool) -> Seed:
        async def put(owner: Owner, content: bytes) -> UUID:
            row_id = uuid4()
            await fresh_pool.execute(ADD_MEMORY, owner.tenant, owner.user_id, row_id, content, V2)
            return row_id

        return put


class SqlSeed:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    async def memory(self, owner: Owner, *, quarantined: bool = False) -> UUID:
        row_id = uuid4()
        if quarantined:
            await self._pool.execute(ADD_QUARANTINED, owner.tenant, owner.user_id, row_id, V2)
        else:
            await self._pool.execute(ADD_MEMORY, owner.tenant, owner.user_id, row_id, V2, V2)
        return row_id

    async def fact(self, owner: Owner, relation: str) -> UUID:
        fact_id = uuid4()
        await self._pool.execute(ADD_FACT, owner.tenant, owner.user_id, fact_id, V2, relation)
        return fact_id


class TestPostgresLegacyRows(LegacyRowsContract):
    @pytest.fixture
    def rows(self, fresh_pool: asyncpg.Pool) -> PostgresLegacyRowsAdapter:
        return PostgresLegacyRowsAdapter(fresh_pool)

    @pytest.fixture
    def seed(self, fresh_pool: asyncpg.Pool) -> SqlSeed:
        return SqlSeed(fresh_pool)
