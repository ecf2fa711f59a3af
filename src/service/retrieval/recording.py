"""Recording use: the memories a context hands out, and the edges that brought them."""

from __future__ import annotations

from memlane.ports.clock import Clock
from memlane.ports.memories import MaintenancePort
from memlane.service.retrieval.graph_expansion import GraphExpansion
from memlane.service.retrieval.pipeline import Retrieval


class Recording:
    """Reads `contexts`: each memory is accessed (its decay clock restarts), and each edge
    that brought one strengthens. Search never records."""

    def __init__(
        self, maintenance: MaintenancePort, clock: Clock, base_rate: float,
        expansion: GraphExpansion | None = None,
    ) -> None:
        self._maintenance = maintenance
        self._clock = clock
        self._base_rate = base_rate
        self._expansion = expansion

    async def __call__(self, r: Retrieval) -> None:
        if not r.contexts:
            return
        now = self._clock()
        ids = [m.id for m in r.contexts]
        await self._maintenance.record_access(r.owner, ids, now, self._base_rate)
        if self._expansion is not None:
            await self._expansion.reinforce(r.owner, r.expansion, ids, now)
