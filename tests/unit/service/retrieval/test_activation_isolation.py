"""Spreading activation over random graphs of several owners never brings another owner's
memory into a context, does bring an owner's own linked memories, and what it leaves
unread (join floor) never changes a context."""

from __future__ import annotations

import asyncio
import math
from datetime import timedelta
from itertools import count
from unittest.mock import patch
from uuid import UUID

from hypothesis import HealthCheck, given, settings, strategies as st

from memlane.domain.graph.edges import Edge, EdgeKind
from memlane.domain.model import NewMemory, Owner
from memlane.domain.policy import GraphTuning, MemoryPolicy
from tests.contract.builders import at_cosine, axis
from tests.fakes.world import DIMENSION, FakeWorld

QUESTION = "what do my notes say"
PER_OWNER = 6

# (source owner, source index, target owner, target index, kind, weight); an edge naming
# two owners' memories is offered to the source's owner (and must be refused).
links = st.lists(
    st.tuples(st.integers(0, 2), st.integers(0, PER_OWNER - 1), st.integers(0, 2),
              st.integers(0, PER_OWNER - 1), st.sampled_from(list(EdgeKind)),
              st.floats(0.05, 1.0)),
    max_size=40,
)


def note_vector(index: int) -> list[float]:
    # Even notes match the question; odd ones do not (only the graph can bring them). All
    # cosines differ: no two notes tie in a ranking.
    return at_cosine(DIMENSION, 0.9 - 0.05 * index if index % 2 == 0 else 0.05 + 0.01 * index,
                     other=1 + index % 7)


async def world_of(owners: int, tuning: GraphTuning) -> tuple[FakeWorld, list[Owner], list[list]]:
    world = FakeWorld(policy=MemoryPolicy(graph=tuning))
    world.embedder.vectors[QUESTION] = axis(DIMENSION, 0)
    everyone = [Owner("t", f"user-{n}") for n in range(owners)]
    ids = []
    for owner in everyone:
        mine = []
        for index in range(PER_OWNER):
            text = f"{owner.user_id} note {index}"
            world.embedder.vectors[text] = note_vector(index)
            mine.append((await world.service.remember(owner, NewMemory(text))).memory.id)
            world.clock.advance(timedelta(minutes=1))  # a timeline that ids do not order
        ids.append(mine)
    return world, everyone, ids


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(owners=st.integers(2, 3), drawn=links, seeds=st.integers(1, 5), hops=st.integers(1, 2),
       fan_out=st.integers(1, 8))
def test_spreading_activation_never_brings_another_owners_memory(
    owners: int, drawn: list[tuple[int, int, int, int, EdgeKind, float]], seeds: int,
    hops: int, fan_out: int,
) -> None:
    async def run() -> None:
        tuning = GraphTuning(expansion_seeds=seeds, expansion_hops=hops,
                             expansion_fan_out=fan_out, expansion_weight=1.0)
        world, everyone, ids = await world_of(owners, tuning)
        now = world.clock()
        for so, si, to, ti, kind, weight in drawn:
            so, to = so % owners, to % owners
            source, target = ids[so][si], ids[to][ti]
            if source != target:
                edge = Edge(source, target, kind, weight, now - timedelta(days=1), now)
                await world.graph.add_edges(everyone[so], [edge], cap_per_node=20)
        for index, owner in enumerate(everyone):
            chosen = await world.service.retrieve_context(owner, QUESTION, 10)
            assert {m.id for m in chosen} <= set(ids[index])

    asyncio.run(run())


def test_activation_brings_an_owners_linked_memory_the_question_alone_would_not() -> None:
    async def run() -> None:
        tuning = GraphTuning(expansion_seeds=3, expansion_hops=2, expansion_weight=1.0)
        world, (ana, bo), ids = await world_of(2, tuning)
        now = world.clock()
        # Ana's best note links to her unmatched note 1; Bo's to his note 3, and Ana's to
        # Bo's note 5 (refused: another owner's memory).
        await world.graph.add_edges(ana, [
            Edge(ids[0][0], ids[0][1], EdgeKind.CAUSAL, 1.0, now, now),
            Edge(ids[0][0], ids[1][5], EdgeKind.CAUSAL, 1.0, now, now),
        ], cap_per_node=20)
        await world.graph.add_edges(bo, [
            Edge(ids[1][0], ids[1][3], EdgeKind.CAUSAL, 1.0, now, now)
        ], cap_per_node=20)
        roles = {m.id: m.role for m in await world.service.retrieve_context(ana, QUESTION, 10)}
        assert roles.get(ids[0][1]) == "activation" and set(roles) <= set(ids[0])
        theirs = {m.id for m in await world.service.retrieve_context(bo, QUESTION, 10)}
        assert ids[1][3] in theirs and theirs <= set(ids[1])

    asyncio.run(run())


def test_a_memory_a_chain_and_the_graph_both_bring_comes_once() -> None:
    async def run() -> None:
        world = FakeWorld(policy=MemoryPolicy(graph=GraphTuning(expansion_seeds=3)))
        world.embedder.vectors[QUESTION] = axis(DIMENSION, 0)
        owner = Owner("t", "ana")
        ids = []
        for index in range(3):
            text = f"segment {index}"
            world.embedder.vectors[text] = note_vector(index)
            written = await world.service.remember(owner, NewMemory(text, conversation_id="c"))
            ids.append(written.memory.id)
        now = world.clock()
        # The segment after the best one: its chain neighbour, and linked by a chain edge.
        await world.graph.add_edges(owner, [
            Edge(ids[0], ids[1], EdgeKind.CHAIN, 1.0, now, now),
        ], cap_per_node=20)
        chosen = [m.id for m in await world.service.retrieve_context(owner, QUESTION, 10)]
        assert ids[1] in chosen and len(chosen) == len(set(chosen))

    asyncio.run(run())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn=links, limit=st.integers(1, 6), seeds=st.integers(1, 5), hops=st.integers(1, 2))
def test_what_the_floor_leaves_unread_never_changes_the_context(
    drawn: list[tuple[int, int, int, int, EdgeKind, float]], limit: int, seeds: int, hops: int
) -> None:
    async def context(pruned: bool) -> set[str]:
        tuning = GraphTuning(expansion_seeds=seeds, expansion_hops=hops, expansion_weight=1.0)
        # The same ids in both worlds: a tie between two memories is broken by id, and the
        # two contexts compared must differ only by the floor.
        counter = count(1)
        with patch("memlane.service.memories.drafting.uuid4", lambda: UUID(int=next(counter))):
            world, (owner,), (ids,) = await world_of(1, tuning)
        now = world.clock()
        edges = [Edge(ids[si], ids[ti], kind, weight, now, now)
                 for _, si, _, ti, kind, weight in drawn if si != ti]
        await world.graph.add_edges(owner, edges, cap_per_node=20)
        if pruned:
            chosen = await world.service.retrieve_context(owner, QUESTION, limit)
        else:
            floor = "memlane.service.retrieval.graph_expansion.join_floor"
            with patch(floor, lambda *_, **__: -math.inf):
                chosen = await world.service.retrieve_context(owner, QUESTION, limit)
        return {m.content for m in chosen}  # ids are random per world; the notes are not

    async def run() -> None:
        assert await context(True) == await context(False)

    asyncio.run(run())


def test_a_memory_reached_over_a_temporal_link_alone_needs_to_match_the_question() -> None:
    async def run() -> None:
        tuning = GraphTuning(expansion_seeds=3, expansion_hops=2, expansion_weight=1.0)
        world, (ana,), ids = await world_of(1, tuning)
        now = world.clock()
        unmatched = ids[0][3]  # written near the best note, about something else
        await world.graph.add_edges(ana, [
            Edge(ids[0][0], unmatched, EdgeKind.TEMPORAL, 1.0, now, now)], cap_per_node=20)
        chosen = {m.id for m in await world.service.retrieve_context(ana, QUESTION, 10)}
        assert unmatched not in chosen and ids[0][0] in chosen
        await world.graph.add_edges(ana, [
            Edge(ids[0][0], unmatched, EdgeKind.CAUSAL, 1.0, now, now)], cap_per_node=20)
        roles = {m.id: m.role for m in await world.service.retrieve_context(ana, QUESTION, 10)}
        assert roles.get(unmatched) == "activation"

    asyncio.run(run())
