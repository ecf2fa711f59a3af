"""The TopicIndexPort contract on real PostgreSQL, on a database of its own (the counts are
over the whole installation)."""

from __future__ import annotations

from uuid import uuid4

import asyncpg
import pytest

from memlane.adapters.postgres.facts.topic_index import PostgresTopicIndexAdapter
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.domain.model import Owner
from memlane.ports.storage import MemoryPorts
from tests.contract.topic_index_contract import TopicIndexContract

pytestmark = pytest.mark.integration


class TestPostgresTopicIndex(TopicIndexContract):
    @pytest.fixture
    def ports(self, fresh_pool: asyncpg.Pool, dimension: int) -> MemoryPorts:
        return postgres_memory_ports(fresh_pool, dimension=dimension)

    @pytest.fixture
    def index(self, fresh_pool: asyncpg.Pool) -> PostgresTopicIndexAdapter:
        return PostgresTopicIndexAdapter(fresh_pool)

    @pytest.fixture
    def owner(self) -> Owner:
        return Owner(f"tenant-{uuid4().hex[:8]}", f"user-{uuid4().hex[:8]}")
