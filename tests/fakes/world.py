"""A MemoryService wired to every fake, with handles on each fake for assertions."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from uuid import uuid4

from memlane.adapters.facts.heuristic import HeuristicFactExtractor
from memlane.composition.services import memory_service as build_memory_service
from memlane.domain.model import Owner, Vector
from memlane.domain.policy import MemoryPolicy
from memlane.ports.facts.store import FactPorts
from memlane.ports.security.audit import AuditPorts
from memlane.ports.storage import MemoryPorts
from memlane.service.security.histories import AuditService
from tests.fakes.audit import fake_audit_ports
from tests.fakes.clock import FakeClock
from tests.fakes.embedder import FakeEmbedder
from tests.fakes.encryption import FakeEncryption
from tests.fakes.entities import fake_entities_for
from tests.fakes.facts import fake_facts_for
from tests.fakes.graph import fake_graph_for
from tests.fakes.keywords import FakeKeywords
from tests.fakes.memory_table import fake_memory_ports

DIMENSION = 64


def pinned_unit(parts: dict[int, float]) -> Vector:
    """A unit vector of the world's dimension from a few components (index: value), to pin
    a text's vector in the fake embedder and craft its cosines."""
    vector = [parts.get(i, 0.0) for i in range(DIMENSION)]
    norm = math.sqrt(sum(x * x for x in vector))
    return [x / norm for x in vector]


@dataclass
class FakeWorld:
    """The service under test and the fakes behind it."""

    policy: MemoryPolicy = field(default_factory=MemoryPolicy)
    memories: MemoryPorts = field(default_factory=lambda: fake_memory_ports(DIMENSION))
    embedder: FakeEmbedder = field(default_factory=lambda: FakeEmbedder(DIMENSION))
    encryption: FakeEncryption = field(default_factory=FakeEncryption)
    keywords: FakeKeywords = field(default_factory=FakeKeywords)
    clock: FakeClock = field(default_factory=FakeClock)
    audit: AuditPorts = field(default_factory=fake_audit_ports)

    def __post_init__(self) -> None:
        self.graph = fake_graph_for(self.memories)
        self.entities = fake_entities_for(self.memories)
        self.facts = fake_facts_for(self.memories)
        self.service = build_memory_service(
            self.memories, self.embedder, self.encryption, self.keywords, self.policy, self.clock,
            graph=self.graph, audit=self.audit, entities=self.entities,
            facts=FactPorts(self.facts, HeuristicFactExtractor()),
        )
        self.history = AuditService(self.audit, self.memories.store, self.encryption, self.clock,
                                    facts=self.facts)


def new_owner() -> Owner:
    return Owner(f"tenant-{uuid4().hex[:8]}", f"user-{uuid4().hex[:8]}")
