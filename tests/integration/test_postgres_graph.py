"""The GraphPort contract on real PostgreSQL (edges cascade with their memories)."""

from __future__ import annotations

from datetime import timedelta

import asyncpg
import pytest

from memlane.adapters.postgres.graph.adapter import PostgresGraphAdapter
from memlane.adapters.postgres.memories.sleep import PostgresSleepAdapter
from memlane.domain.graph import HALF_LIFE_DAYS, EdgeKind
from memlane.domain.model import Owner
from memlane.ports.graph import GraphPort
from memlane.ports.storage import MemoryPorts
from tests.contract.activation_contract import ActivationWalkContract, link
from tests.contract.builders import T0, insert, stored
from tests.contract.graph_contract import GraphPortContract

pytestmark = pytest.mark.integration


class TestPostgresGraph(GraphPortContract, ActivationWalkContract):
    """Fixtures ports and owner come from the conftests."""

    @pytest.fixture
    def graph(self, pg_pool: asyncpg.Pool) -> GraphPort:
        return PostgresGraphAdapter(pg_pool)

    async def test_an_edge_faded_past_a_floats_range_is_pruned_without_an_underflow(
        self, pg_pool: asyncpg.Pool, ports: MemoryPorts, graph: GraphPort, owner: Owner
    ) -> None:
        # PostgreSQL raises on a float8 product that underflows to 0, where Python gives 0.
        a, b, c = stored(owner), stored(owner), stored(owner)
        await insert(ports.store, a, b, c)
        tiny = link(a, b, EdgeKind.SEMANTIC, 5e-324)
        strong = link(a, c, EdgeKind.SEMANTIC, 1.0)
        await graph.add_edges(owner, [tiny, strong], cap_per_node=10)
        later = T0 + timedelta(days=400)

        pruned = await PostgresSleepAdapter(pg_pool, 100).prune(
            owner, later, 0.01, {EdgeKind.SEMANTIC.value: HALF_LIFE_DAYS[EdgeKind.SEMANTIC]})

        assert pruned == 2  # 400 days are 13 half-lives: even the strong edge is below 0.01
        assert await graph.edges_of(owner, [a.id]) == []
