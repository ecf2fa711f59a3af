"""Writes grow the graph: semantic links to similar memories, supersession of what changed."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memlane.domain.errors import StorageUnavailable
from memlane.domain.graph.edges import EdgeKind
from memlane.domain.graph.supersession_learned import LearnedJudge
from memlane.domain.memories.segments import Message, Role
from memlane.domain.model import NewMemory
from memlane.domain.policy import GraphTuning, MemoryPolicy
from tests.contract.builders import at_cosine, axis
from tests.fakes.world import DIMENSION, FakeWorld, new_owner


def world_with(vectors: dict[str, list[float]], **graph: object) -> FakeWorld:
    world = FakeWorld(policy=MemoryPolicy(graph=GraphTuning(**graph)))  # type: ignore[arg-type]
    world.embedder.vectors.update(vectors)
    return world


async def test_a_similar_new_memory_links_to_the_older_one_weighted_by_cosine() -> None:
    old, new = "I play the cello in an orchestra", "Rehearsals for the concert start soon"
    world = world_with({old: axis(DIMENSION, 0), new: at_cosine(DIMENSION, 0.6)})
    owner = new_owner()
    first = await world.service.remember(owner, NewMemory(old))
    second = await world.service.remember(owner, NewMemory(new))
    assert first.edges == ()
    assert [(t, k) for t, k, _ in second.edges] == [(first.memory.id, "semantic")]
    (edge,) = await world.graph.edges_of(owner, [first.memory.id], [EdgeKind.SEMANTIC])
    assert (edge.source, edge.kind) == (second.memory.id, EdgeKind.SEMANTIC)
    assert edge.weight == pytest.approx(0.6)


async def test_a_memory_below_the_threshold_stays_unlinked() -> None:
    old, new = "I play the cello in an orchestra", "My car needs new tyres"
    world = world_with({old: axis(DIMENSION, 0), new: at_cosine(DIMENSION, 0.2)})
    owner = new_owner()
    await world.service.remember(owner, NewMemory(old))
    assert (await world.service.remember(owner, NewMemory(new))).edges == ()


async def test_a_move_supersedes_the_old_home_and_both_memories_stay() -> None:
    old, new = "I live in Berlin", "I moved to Lisbon last month"
    # Above the merge threshold: without supersession these two would have merged.
    world = world_with({old: axis(DIMENSION, 0), new: at_cosine(DIMENSION, 0.9)})
    owner = new_owner()
    berlin = await world.service.remember(owner, NewMemory(old))
    lisbon = await world.service.remember(owner, NewMemory(new))
    assert not lisbon.merged and lisbon.memory.id != berlin.memory.id
    kinds = {(target, kind) for target, kind, _ in lisbon.edges}
    assert (berlin.memory.id, "supersedes") in kinds
    assert (await world.service.get(owner, berlin.memory.id)).content == old


async def test_giving_up_coffee_contradicts_loving_it_in_german() -> None:
    old, new = "Ich liebe Kaffee", "Ich trinke keinen Kaffee mehr"
    world = world_with({old: axis(DIMENSION, 0), new: at_cosine(DIMENSION, 0.7)})
    owner = new_owner()
    loved = await world.service.remember(owner, NewMemory(old))
    gave_up = await world.service.remember(owner, NewMemory(new))
    replaced = {t: k for t, k, _ in gave_up.edges if k in {"supersedes", "contradiction"}}
    assert replaced.keys() == {loved.memory.id}


async def test_a_new_value_replaces_the_current_head_never_a_value_already_replaced() -> None:
    # Bosch replaced Siemens by its fact only (no change words, so the words alone would not
    # chain them); SAP is nearest to Siemens, which is already marked superseded.
    siemens, bosch = "I work at Siemens.", "I work at Bosch."
    sap = "I switched jobs, I'm at SAP now."
    world = world_with({siemens: axis(DIMENSION, 0), bosch: at_cosine(DIMENSION, 0.6),
                        sap: at_cosine(DIMENSION, 0.8, other=2)})
    owner = new_owner()
    first = await world.service.remember(owner, NewMemory(siemens))
    second = await world.service.remember(owner, NewMemory(bosch))
    assert (await world.service.get(owner, first.memory.id)).superseded_by == second.memory.id
    third = await world.service.remember(owner, NewMemory(sap))
    replaced = {target for target, kind, _ in third.edges if kind == "supersedes"}
    assert replaced == {second.memory.id}


async def test_an_addition_supersedes_nothing() -> None:
    old, new = "I like coffee", "I also like green tea"
    world = world_with({old: axis(DIMENSION, 0), new: at_cosine(DIMENSION, 0.7)})
    owner = new_owner()
    await world.service.remember(owner, NewMemory(old))
    added = await world.service.remember(owner, NewMemory(new))
    assert {k for _, k, _ in added.edges} == {"semantic"}


async def test_with_the_graph_off_a_near_duplicate_merges_and_nothing_links() -> None:
    old, new = "I live in Berlin", "I moved to Lisbon last month"
    world = world_with({old: axis(DIMENSION, 0), new: at_cosine(DIMENSION, 0.9)}, enabled=False)
    owner = new_owner()
    berlin = await world.service.remember(owner, NewMemory(old))
    lisbon = await world.service.remember(owner, NewMemory(new))
    assert lisbon.merged and lisbon.memory.id == berlin.memory.id and lisbon.edges == ()
    assert await world.graph.edges_of(owner, [berlin.memory.id]) == []


async def test_a_users_own_chat_can_supersede_but_a_named_transcript_cannot() -> None:
    old, new = "I live in Berlin", "I moved to Lisbon last month"
    chat_old, chat_new = f"user: {old}", f"user: {new}"
    named_old, named_new = f"Ana: {old}", f"Bob: {new}"
    world = world_with({
        chat_old: axis(DIMENSION, 0), chat_new: at_cosine(DIMENSION, 0.9),
        named_old: axis(DIMENSION, 0), named_new: at_cosine(DIMENSION, 0.9),
    })
    memory, owner = world.service, new_owner()
    mine = await memory.add_messages(owner, "mine", [Message(Role.USER, old)])
    moved = await memory.add_messages(owner, "mine", [Message(Role.USER, new)])
    assert (moved.memories[0].id, mine.memories[0].id, EdgeKind.SUPERSEDES) in {
        e.key for e in moved.edges
    }
    other = new_owner()
    said = await memory.add_messages(other, "log", [Message(Role.USER, old, name="Ana")])
    reply = await memory.add_messages(other, "log", [Message(Role.USER, new, name="Bob")])
    assert said.memories[0].metadata["names"] == ["Ana"]
    assert not {e.kind for e in reply.edges} & {EdgeKind.SUPERSEDES, EdgeKind.CONTRADICTION}


async def test_a_write_whose_links_cannot_be_stored_still_succeeds() -> None:
    old, new = "I play the cello in an orchestra", "Rehearsals for the concert start soon"
    world = world_with({old: axis(DIMENSION, 0), new: at_cosine(DIMENSION, 0.6)})
    owner = new_owner()
    await world.service.remember(owner, NewMemory(old))

    async def unavailable(*args: object, **kwargs: object) -> int:
        raise StorageUnavailable("database gone")

    world.graph.add_edges = unavailable  # type: ignore[method-assign]
    stored = await world.service.remember(owner, NewMemory(new))
    assert stored.edges == () and not stored.merged
    assert (await world.service.get(owner, stored.memory.id)).content == new


async def test_memories_said_close_in_time_are_joined_by_a_temporal_edge() -> None:
    texts = ["Booked the dentist", "Bought stamps", "Paid the electricity bill"]
    world, owner = world_with({}), new_owner()
    start = world.clock()
    gaps = [timedelta(0), timedelta(minutes=30), timedelta(hours=5)]
    ids = [
        (await world.service.remember(owner, NewMemory(t, created_at=start + gap))).memory.id
        for t, gap in zip(texts, gaps, strict=True)
    ]
    temporal = await world.graph.edges_of(owner, ids, [EdgeKind.TEMPORAL])
    # Half an hour apart: weight 1 - 0.5 / 2; five hours apart is beyond the window.
    assert [(e.source, e.target) for e in temporal] == [(ids[0], ids[1])]
    assert temporal[0].weight == pytest.approx(0.75)


async def test_segments_of_one_conversation_get_no_temporal_edge_beside_their_chain() -> None:
    world, owner = world_with({}), new_owner()
    messages = [Message(Role.USER, "We start the kitchen renovation on Monday"),
                Message(Role.ASSISTANT, "Good luck"),
                Message(Role.USER, "The tiles arrive on Tuesday")]
    added = await world.service.add_messages(owner, "renovation", messages)
    ids = [m.id for m in added.memories]
    assert await world.graph.edges_of(owner, ids, [EdgeKind.TEMPORAL]) == []


async def test_the_learned_judge_of_the_graph_tuning_decides_where_the_rules_find_nothing() -> None:
    old, new = "Breakfast is porridge with apples", "Mornings start with granola"
    vectors = {old: axis(DIMENSION, 0), new: at_cosine(DIMENSION, 0.7)}
    by_cosine = LearnedJudge(("cosine",), (0.6,), (0.1,), (3.0,), 0.0, 0.5)
    for judge, expected in ((None, set()), (by_cosine, {"supersedes"})):
        world = world_with(vectors, learned_judge=judge)
        owner = new_owner()
        await world.service.remember(owner, NewMemory(old))
        written = await world.service.remember(owner, NewMemory(new))
        assert {k for _, k, _ in written.edges if k != "semantic"} == expected
