"""ServicePart: the collaborators every part of MemoryService (write, read, maintain) works with."""

from __future__ import annotations

from memlane.domain.policy import MemoryPolicy
from memlane.ports.clock import Clock
from memlane.ports.embedding import EmbeddingPort
from memlane.ports.memory import MemoryPort
from memlane.service.sealing import Sealer


class ServicePart:
    """Base of Writer, Retriever and Maintenance: one storage, embedder, sealer, policy, clock."""

    def __init__(
        self,
        memories: MemoryPort,
        embedder: EmbeddingPort,
        sealer: Sealer,
        policy: MemoryPolicy,
        clock: Clock,
    ) -> None:
        self._memories = memories
        self._embedder = embedder
        self._sealer = sealer
        self._policy = policy
        self._clock = clock
