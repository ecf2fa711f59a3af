"""ActivationWalkContract: the neighbourhood a GraphPort reads for spreading activation.

Mixed into the GraphPort contract suites (fake and PostgreSQL): the same fixtures `ports`,
`graph` and `owner`. The domain's `activation_walk.walked` is the reference for both."""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID, uuid4

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from memlane.domain.graph.activation import adjacency, spread
from memlane.domain.graph.activation_walk import Walk, walked
from memlane.domain.graph.edges import Edge, EdgeKind, used
from memlane.domain.model import Owner, StoredMemory
from memlane.ports.graph import GraphPort
from memlane.ports.storage import MemoryPorts
from tests.contract.builders import T0, insert, stored

CAP = 200
KINDS = list(EdgeKind)

# A random graph: (owner, source, target, kind) by index; a few name two owners' memories.
edge_draws = st.lists(
    st.tuples(st.integers(0, 2), st.integers(0, 5), st.integers(0, 2), st.integers(0, 5),
              st.sampled_from(KINDS)),
    max_size=40,
)


def link(a: StoredMemory, b: StoredMemory, kind: EdgeKind, weight: float) -> Edge:
    return Edge(a.id, b.id, kind, weight, T0, T0)


def keys(edges: list[Edge]) -> set[tuple[UUID, UUID, EdgeKind, float]]:
    return {(e.source, e.target, e.kind, round(e.weight, 6)) for e in edges}


class ActivationWalkContract:
    async def test_a_neighbourhood_is_the_strongest_links_and_what_replaced_them(
        self, ports: MemoryPorts, graph: GraphPort, owner: Owner
    ) -> None:
        seed, a, b, c, d, e, newer, entry, fix = (stored(owner) for _ in range(9))
        await insert(ports.store, seed, a, b, c, d, e, newer, entry, fix)
        edges = [
            link(seed, a, EdgeKind.SEMANTIC, 0.9), link(seed, b, EdgeKind.CAUSAL, 0.8),
            link(seed, c, EdgeKind.SEMANTIC, 0.3),  # the third strongest outgoing: cut
            link(d, seed, EdgeKind.CHAIN, 0.7),  # incoming: a direction of its own
            link(a, e, EdgeKind.TEMPORAL, 0.6),  # a is the best reached: it spreads on
            link(b, c, EdgeKind.SEMANTIC, 0.5),  # b is not in the frontier of one
            link(newer, a, EdgeKind.SUPERSEDES, 1.0),  # replaces a memory reached
            link(fix, entry, EdgeKind.CONTRADICTION, 1.0),  # replaces an entry
            link(seed, c, EdgeKind.SUPERSEDES, 0.95),  # replacing kinds are not walked
        ]
        await graph.add_edges(owner, edges, cap_per_node=CAP)
        walk = Walk({seed.id: 1.0}, fan_out=2, frontier=1, also=frozenset({entry.id}))
        found = await graph.neighbourhood(owner, walk)
        assert keys(found) == keys([edges[i] for i in (0, 1, 3, 4, 6, 7)])

    # Fixtures are per test, not per example: each example makes its own owners. The test
    # runs in both contract suites (fake and PostgreSQL), hence two executors.
    @settings(max_examples=25, deadline=None, suppress_health_check=[
        HealthCheck.function_scoped_fixture, HealthCheck.differing_executors,
    ])
    @given(draws=edge_draws, fan_out=st.integers(0, 4), frontier=st.integers(0, 4),
           seeds=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 5)), max_size=4))
    async def test_no_neighbourhood_or_spread_crosses_owners(
        self, ports: MemoryPorts, graph: GraphPort, owner: Owner,
        draws: list[tuple[int, int, int, int, EdgeKind]], fan_out: int, frontier: int,
        seeds: list[tuple[int, int]],
    ) -> None:
        # Three owners of one tenant (fresh per example), six memories each; every owner
        # gets the edges drawn for it, and the seeds may name anyone's memories.
        owners = [Owner(owner.tenant, f"{owner.user_id}-{uuid4().hex[:6]}") for _ in range(3)]
        rows = [[stored(o) for _ in range(6)] for o in owners]
        await insert(ports.store, *(m for row in rows for m in row))
        given_edges: dict[int, dict[tuple[UUID, UUID, EdgeKind], Edge]] = {0: {}, 1: {}, 2: {}}
        for n, (so, si, to, ti, kind) in enumerate(draws):
            source, target = rows[so][si], rows[to][ti]
            if source.id != target.id:
                # Distinct weights: which links are the strongest is never a tie.
                given_edges[so][(source.id, target.id, kind)] = link(
                    source, target, kind, round(0.05 + 0.9 * n / 40, 6)
                )
        for index, mine in enumerate(owners):
            await graph.add_edges(mine, list(given_edges[index].values()), cap_per_node=CAP)
        everyone = {m.id for row in rows for m in row}
        walk = Walk({rows[o][i].id: 1.0 - 0.1 * o for o, i in seeds}, fan_out=fan_out,
                    frontier=frontier, also=frozenset(everyone))
        for index, mine in enumerate(owners):
            own = {m.id for m in rows[index]}
            found = await graph.neighbourhood(mine, walk)
            assert {end for e in found for end in (e.source, e.target)} <= own
            # The same edges as the reference over this owner's stored edges.
            stored_edges = await graph.edges_of(mine, own)
            assert keys(found) == keys(walked(stored_edges, walk))
            reached = spread(dict(walk.seeds), adjacency(found, T0))
            assert set(reached) <= own

    @settings(max_examples=30, deadline=None, suppress_health_check=[
        HealthCheck.function_scoped_fixture, HealthCheck.differing_executors,
    ])
    @given(kind=st.sampled_from(KINDS), weight=st.floats(0.0, 1.0),
           hours=st.floats(-48.0, 24.0 * 400), times=st.integers(1, 3))
    # A faded weight whose product underflows: PostgreSQL raises where Python gives 0.
    @example(kind=EdgeKind.SEMANTIC, weight=5e-324, hours=24.0 * 400, times=1)
    @example(kind=EdgeKind.SEMANTIC, weight=1e-300, hours=24.0 * 400, times=1)
    async def test_a_used_edge_is_what_the_domain_makes_of_it(
        self, ports: MemoryPorts, graph: GraphPort, owner: Owner,
        kind: EdgeKind, weight: float, hours: float, times: int,
    ) -> None:
        mine = Owner(owner.tenant, f"{owner.user_id}-{uuid4().hex[:6]}")
        a, b, other = stored(mine), stored(mine), stored(mine)
        await insert(ports.store, a, b, other)
        edge = link(a, b, kind, weight)
        untouched = link(a, other, kind, weight)
        await graph.add_edges(mine, [edge, untouched], cap_per_node=CAP)
        now = T0 + timedelta(hours=hours)
        # Used `times` times at once (one request's path, or uses a flush gathered).
        assert await graph.use_edges(mine, [edge.key] * times, now) == times
        expected = edge
        for _ in range(times):
            expected = used(expected, now)
        found = {e.key: e for e in await graph.edges_of(mine, [a.id])}
        assert found[edge.key].weight == pytest.approx(expected.weight, rel=1e-9, abs=1e-9)
        assert found[edge.key].activated_at == expected.activated_at
        assert found[untouched.key].weight == pytest.approx(weight)
        assert await graph.use_edges(mine, [(b.id, a.id, kind)], now) == 0  # no such edge
