"""The reference server's knowledge graph on memories: entities, observations and relations
round-trip, never merge away, keep names out of tags and stay within their owner."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memlane.domain.graph.edges import EdgeKind
from memlane.domain.graph.knowledge import Entity, EntityNotFound, Relation
from memlane.domain.model import MemoryFilter, NewMemory
from memlane.service.graph.knowledge import KnowledgeGraphService
from tests.fakes.world import FakeWorld, new_owner


def graph_of(world: FakeWorld) -> KnowledgeGraphService:
    return KnowledgeGraphService(world.service, world.encryption, world.graph, world.clock)


async def test_entities_observations_and_relations_read_back_as_given() -> None:
    world, owner = FakeWorld(), new_owner()
    graph = graph_of(world)
    created = await graph.create_entities(owner, [
        Entity("Ana Silva", "person", ("plays chess", "plays chess")),
        Entity("Acme", "organization"),
    ])
    assert created == [
        Entity("Ana Silva", "person", ("plays chess",)), Entity("Acme", "organization")
    ]
    assert await graph.create_relations(owner, [Relation("ana silva", "ACME", "works_at")]) == [
        Relation("Ana Silva", "Acme", "works_at")
    ]
    added = await graph.add_observations(owner, [("Ana Silva", ["plays chess", "drinks tea"])])
    assert added == [("Ana Silva", ("drinks tea",))]

    whole = await graph.read_graph(owner)
    assert [e.name for e in whole.entities] == ["Ana Silva", "Acme"]
    assert sorted(whole.entities[0].observations) == ["drinks tea", "plays chess"]
    assert whole.relations == (Relation("Ana Silva", "Acme", "works_at"),)
    assert (await graph.open_nodes(owner, ["acme"])).relations == whole.relations


async def test_a_name_already_there_and_a_relation_already_there_are_skipped() -> None:
    world, owner = FakeWorld(), new_owner()
    graph = graph_of(world)
    await graph.create_entities(owner, [Entity("Ana", "person"), Entity("Bo", "person")])
    assert await graph.create_entities(owner, [Entity(" ana ", "robot")]) == []
    await graph.create_relations(owner, [Relation("Ana", "Bo", "knows")])
    assert await graph.create_relations(owner, [Relation("Ana", "Bo", "knows")]) == []
    assert len((await graph.read_graph(owner)).relations) == 1


async def test_nodes_are_linked_by_entity_edges_for_graph_expansion() -> None:
    world, owner = FakeWorld(), new_owner()
    graph = graph_of(world)
    await graph.create_entities(owner, [Entity("Ana", "person", ("likes tea",)),
                                        Entity("Bo", "person")])
    await graph.create_relations(owner, [Relation("Ana", "Bo", "knows")])
    page = await world.service.list(owner, MemoryFilter(), None, 50)
    memories = {m.content: m.id for m in page.items}
    edges = await world.graph.edges_of(owner, [memories["Ana (person)"]], [EdgeKind.ENTITY])
    assert {e.source for e in edges} == {memories["Ana: likes tea"], memories["Ana knows Bo"]}


async def test_near_identical_nodes_never_merge_and_nothing_merges_into_a_node() -> None:
    world, owner = FakeWorld(), new_owner()
    graph = graph_of(world)
    await graph.create_entities(owner, [Entity("Ana", "person", ("likes green tea",))])
    world.clock.advance(timedelta(seconds=1))
    await graph.create_entities(owner, [Entity("Ana B", "person", ("likes green tea",))])
    plain = await world.service.remember(owner, NewMemory("Ana: likes green tea"))
    assert not plain.merged
    names = [e.name for e in (await graph.read_graph(owner)).entities]
    assert names == ["Ana", "Ana B"]


async def test_no_entity_name_is_stored_in_a_tag() -> None:
    world, owner = FakeWorld(), new_owner()
    graph = graph_of(world)
    await graph.create_entities(owner, [Entity("Zebulon", "person", ("is tall",))])
    await graph.create_relations(owner, [Relation("Zebulon", "Zebulon", "admires")])
    page = await world.service.list(owner, MemoryFilter(), None, 50)
    assert page.items and all("zebulon" not in t.lower() for m in page.items for t in m.tags)


async def test_an_unknown_entity_is_refused_and_changes_nothing() -> None:
    world, owner = FakeWorld(), new_owner()
    graph = graph_of(world)
    await graph.create_entities(owner, [Entity("Ana", "person")])
    with pytest.raises(EntityNotFound):
        await graph.add_observations(owner, [("Ana", ["likes tea"]), ("Nobody", ["x"])])
    with pytest.raises(EntityNotFound):
        await graph.create_relations(owner, [Relation("Ana", "Nobody", "knows")])
    assert (await world.service.stats(owner)).total == 1


async def test_search_finds_entities_by_observation_and_another_owner_sees_nothing() -> None:
    world, owner = FakeWorld(), new_owner()
    graph = graph_of(world)
    await graph.create_entities(owner, [Entity("Ana", "person", ("plays chess",)),
                                        Entity("Bo", "person", ("grows tomatoes",))])
    found = await graph.search_nodes(owner, "chess")
    assert [e.name for e in found.entities] == ["Ana"]
    stranger = new_owner()
    assert (await graph.read_graph(stranger)).entities == ()
    assert (await graph.open_nodes(stranger, ["Ana"])).entities == ()
