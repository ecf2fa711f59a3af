"""The TopicIndexPort contract on the fake, over the fake memory table."""

from __future__ import annotations

from uuid import uuid4

import pytest

from memlane.domain.model import Owner
from memlane.ports.storage import MemoryPorts
from tests.contract.topic_index_contract import TopicIndexContract
from tests.fakes.memory_table import fake_memory_ports
from tests.fakes.topic_index import FakeTopicIndex
from tests.fakes.topics import FakeTopics


class TestFakeTopicIndex(TopicIndexContract):
    @pytest.fixture
    def ports(self) -> MemoryPorts:
        return fake_memory_ports(8)

    @pytest.fixture
    def index(self, ports: MemoryPorts) -> FakeTopicIndex:
        assert isinstance(ports.topics, FakeTopics)
        return FakeTopicIndex(ports.topics._table)

    @pytest.fixture
    def owner(self) -> Owner:
        return Owner(f"tenant-{uuid4().hex[:8]}", f"user-{uuid4().hex[:8]}")
