"""ServicePart: the collaborators every part of MemoryService (write, read, maintain) works with."""

from __future__ import annotations

from memlane.domain.policy import MemoryPolicy
from memlane.ports.clock import Clock
from memlane.ports.embedding import EmbeddingPort
from memlane.ports.storage import MemoryPorts
from memlane.service.security.sealing import Sealer


class ServicePart:
    """Base of Writer, Retriever and Maintenance: the storage roles, embedder, sealer, policy,
    clock. Each part uses only the roles its use cases need."""

    def __init__(
        self,
        memories: MemoryPorts,
        embedder: EmbeddingPort,
        sealer: Sealer,
        policy: MemoryPolicy,
        clock: Clock,
    ) -> None:
        self._store = memories.store
        self._search = memories.search
        self._maintenance = memories.maintenance
        self._faded = memories.faded
        self._consolidation = memories.consolidation
        self._embedder = embedder
        self._sealer = sealer
        self._policy = policy
        self._clock = clock
