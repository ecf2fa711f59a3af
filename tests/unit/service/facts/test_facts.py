"""Facts in the service over fakes: read at write, superseded, stated, edited, erased."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memlane.domain.errors import InvalidMemory
from memlane.domain.facts.model import FactType, InvalidFact
from memlane.domain.facts.records import FactNotFound
from memlane.domain.graph.edges import EdgeKind
from memlane.service.tenant_memory import TenantMemory
from tests.fakes.world import FakeWorld


@pytest.fixture
def world() -> FakeWorld:
    return FakeWorld()


@pytest.fixture
def memory(world: FakeWorld) -> TenantMemory:
    return TenantMemory(world.service, tenant="acme")


async def current(memory: TenantMemory, user_id: str = "u1") -> dict[str, str]:
    page = await memory.facts(user_id=user_id)
    return {f.relation: f.object for f in page.items}


async def test_remembering_a_statement_stores_its_facts_with_their_source(
    memory: TenantMemory,
) -> None:
    stored = await memory.remember(user_id="u1", content="I work as a nurse at Santa Maria")
    page = await memory.facts(user_id="u1")
    assert {(f.relation, f.object) for f in page.items} == {
        ("works_as", "nurse"), ("works_at", "Santa Maria"),
    }
    assert {f.source_memory_id for f in page.items} == {stored.id}
    assert all(f.source_time == stored.created_at for f in page.items)


async def test_a_moved_home_supersedes_the_old_one_and_links_the_memories(
    memory: TenantMemory, world: FakeWorld
) -> None:
    berlin = await memory.remember(user_id="u1", content="I live in Berlin")
    world.clock.advance(timedelta(days=3))
    lisbon = await memory.remember(user_id="u1", content="I moved to Lisbon last month")
    assert (await current(memory))["lives_in"] == "Lisbon"
    ended = (await memory.facts(user_id="u1", current=False)).items
    assert [(f.object, f.valid_until) for f in ended] == [("Berlin", world.clock.now)]
    owner = memory.owner("u1")
    edges = await world.graph.edges_of(owner, [lisbon.id], [EdgeKind.SUPERSEDES])
    assert [(e.source, e.target) for e in edges] == [(lisbon.id, berlin.id)]


async def test_a_negated_statement_ends_the_fact_without_a_successor(
    memory: TenantMemory,
) -> None:
    await memory.remember(user_id="u1", content="I work at Google")
    await memory.remember(user_id="u1", content="I no longer work at Google")
    assert "works_at" not in await current(memory)
    ended = (await memory.facts(user_id="u1", current=False)).items
    assert [(f.object, f.superseded_by) for f in ended] == [("Google", None)]


async def test_a_transcript_turn_yields_no_facts_about_the_user(memory: TenantMemory) -> None:
    await memory.remember(user_id="u1", content="I live in Oslo",
                          metadata={"speaker": "Caroline"})
    assert await current(memory) == {}


async def test_a_stated_fact_is_edited_scored_and_deleted_in_process(
    memory: TenantMemory,
) -> None:
    fact = await memory.state_fact(user_id="u1", relation="likes", object="tea",
                                   user_fact_score=8)
    assert fact.fact_type is FactType.PREFERENCE and fact.source_memory_id is None
    edited = await memory.update_fact(user_id="u1", fact_id=fact.id, object="green tea",
                                      fact_type="trait")
    assert edited.object == "green tea" and edited.user_fact_score == 8
    assert edited.fact_type is FactType.TRAIT
    cleared = await memory.update_fact(user_id="u1", fact_id=fact.id, clear_score=True)
    assert cleared.user_fact_score is None
    with pytest.raises(FactNotFound):
        await memory.delete_fact(user_id="u2", fact_id=fact.id)
    await memory.delete_fact(user_id="u1", fact_id=fact.id)
    assert await current(memory) == {}


async def test_bad_stated_facts_are_refused(memory: TenantMemory) -> None:
    for bad in ({"relation": "hobby", "object": "chess"},
                {"relation": "likes", "object": " "},
                {"relation": "likes", "object": "tea", "fact_type": "mood"},
                {"relation": "likes", "object": "tea", "user_fact_score": 12}):
        with pytest.raises(InvalidFact):
            await memory.state_fact(user_id="u1", **bad)  # type: ignore[arg-type]
    assert await current(memory) == {}


async def test_erasing_a_user_erases_their_facts(memory: TenantMemory) -> None:
    await memory.remember(user_id="u1", content="My name is Ada")
    await memory.state_fact(user_id="u1", relation="likes", object="chess")
    await memory.remember(user_id="u2", content="My name is Bo")
    await memory.delete_all(user_id="u1")
    assert await current(memory) == {}
    assert await current(memory, "u2") == {"name": "Bo"}


async def test_a_service_without_facts_says_so(world: FakeWorld) -> None:
    from memlane.composition.services import memory_service

    bare = memory_service(world.memories, world.embedder, world.encryption, world.keywords,
                         world.policy, world.clock)
    with pytest.raises(InvalidMemory, match="without facts"):
        _ = bare.facts


async def test_a_failing_fact_store_never_fails_the_write_nor_logs_content(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from memlane.adapters.facts.heuristic import HeuristicFactExtractor
    from memlane.composition.services import memory_service
    from memlane.domain.errors import StorageUnavailable
    from memlane.domain.model import NewMemory
    from memlane.ports.facts.store import FactPorts
    from tests.fakes.facts import FakeFacts
    from tests.fakes.world import new_owner

    class BrokenFacts(FakeFacts):
        async def save(self, *args: object, **kwargs: object) -> int:
            raise StorageUnavailable("database gone")

    world = FakeWorld()
    service = memory_service(
        world.memories, world.embedder, world.encryption, world.keywords, world.policy,
        world.clock, facts=FactPorts(BrokenFacts(world.memories.store._table),  # type: ignore[attr-defined]
                                     HeuristicFactExtractor()),
    )
    owner = new_owner()
    result = await service.remember(owner, NewMemory(content="I live in Porto"))
    assert (await service.get(owner, result.memory.id)).content == "I live in Porto"
    assert "StorageUnavailable" in caplog.text and "Porto" not in caplog.text
