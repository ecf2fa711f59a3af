"""MemoryService maintenance over fakes: decay, cleanup, embedder outage and backfill, stats."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memlane.domain.errors import EmbeddingUnavailable
from memlane.domain.memories.decay import importance_at
from memlane.domain.model import MemoryType, NewMemory, Owner
from memlane.domain.policy import MemoryPolicy
from memlane.domain.security.audit import CLI, SYSTEM_DECAY, EventKind
from memlane.service.memories.maintenance import OWNERS_AT_ONCE
from memlane.service.security.actors import acting_as
from tests.fakes.world import FakeWorld, new_owner


@pytest.fixture
def world() -> FakeWorld:
    return FakeWorld()


@pytest.fixture
def owner() -> Owner:
    return new_owner()


async def test_decay_materialises_importance_now_and_a_second_run_changes_nothing(
    world: FakeWorld, owner: Owner
) -> None:
    memory = (await world.service.remember(owner, NewMemory("Parcel arrives on Monday."))).memory
    now = world.clock.advance(timedelta(days=20))
    assert await world.service.decay(owner) == 1
    assert await world.service.decay(owner) == 0
    stored = await world.memories.store.get(owner, memory.id)
    assert stored is not None
    expected = importance_at(memory.heat, memory.memory_type, now, world.policy.base_rate)
    assert stored.importance == pytest.approx(expected)
    assert (await world.service.get(owner, memory.id)).importance == pytest.approx(expected)


async def test_cleanup_deletes_faded_memories_and_keeps_pinned_and_important_ones(
    world: FakeWorld, owner: Owner
) -> None:
    faded = await world.service.remember(
        owner, NewMemory("Weather was rainy today.", memory_type=MemoryType.CONTEXT)
    )
    pinned = await world.service.remember(
        owner, NewMemory("Locker code reminder.", memory_type=MemoryType.TOOL_RESULT, pinned=True)
    )
    fact = await world.service.remember(
        owner, NewMemory("The user is allergic to nuts.", memory_type=MemoryType.FACT)
    )
    world.clock.advance(timedelta(days=365))  # context and tool results sit at their 0.1 floor
    assert await world.service.cleanup(owner) == 1
    remaining = {m.id async for m in world.service.export(owner)}
    assert remaining == {pinned.memory.id, fact.memory.id}
    assert faded.memory.id not in remaining


async def test_cleanup_keeps_memories_above_min_importance(world: FakeWorld, owner: Owner) -> None:
    await world.service.remember(owner, NewMemory("Bus leaves at nine.", importance=0.5,
                                                  memory_type=MemoryType.CONTEXT))
    world.clock.advance(timedelta(days=1))
    assert await world.service.cleanup(owner) == 0


async def test_cleanup_of_one_user_leaves_other_users_alone(world: FakeWorld) -> None:
    alice, bob = new_owner(), new_owner()
    for who in (alice, bob):
        await world.service.remember(who, NewMemory("Weather was rainy.",
                                                    memory_type=MemoryType.CONTEXT))
    world.clock.advance(timedelta(days=365))
    assert await world.service.cleanup(alice) == 1
    assert (await world.service.stats(bob)).total == 1
    assert await world.service.cleanup() == 1  # everyone


async def test_a_raised_min_importance_also_cleans_up_facts(owner: Owner) -> None:
    world = FakeWorld(policy=MemoryPolicy(min_importance=0.3))
    await world.service.remember(owner, NewMemory("The user once visited Rome.",
                                                  memory_type=MemoryType.FACT))
    world.clock.advance(timedelta(days=3650))
    assert await world.service.cleanup(owner) == 1


async def test_an_embedder_outage_stores_the_memory_without_embedding(
    world: FakeWorld, owner: Owner
) -> None:
    world.embedder.available = False
    result = await world.service.remember(owner, NewMemory("I like green tea."))
    assert result.merged is False
    assert result.memory.embedding_model is None
    again = await world.service.remember(owner, NewMemory("I like green tea."))
    assert again.merged is False  # no embedding, so no dedup: both writes are kept
    stats = await world.service.stats(owner)
    assert (stats.total, stats.with_embeddings) == (2, 0)


async def test_backfill_embeds_what_the_outage_left_behind(world: FakeWorld, owner: Owner) -> None:
    world.embedder.available = False
    ids = [
        (await world.service.remember(owner, NewMemory(f"Memory number {i}."))).memory.id
        for i in range(5)
    ]
    world.embedder.available = True
    world.embedder.calls.clear()
    assert await world.service.backfill(batch_size=2) == 5
    assert [len(texts) for texts, _ in world.embedder.calls] == [2, 2, 1]
    assert (await world.service.stats(owner)).with_embeddings == 5
    for memory_id in ids:
        assert (await world.service.get(owner, memory_id)).embedding_model == world.embedder.model
    hits = await world.service.search(owner, "Memory number 3.", limit=1)
    assert hits[0].memory.id == ids[3] and hits[0].similarity == pytest.approx(1.0)
    assert await world.service.backfill() == 0


async def test_backfill_while_the_embedder_is_still_down_raises_and_loses_nothing(
    world: FakeWorld, owner: Owner
) -> None:
    world.embedder.available = False
    await world.service.remember(owner, NewMemory("I like green tea."))
    with pytest.raises(EmbeddingUnavailable):
        await world.service.backfill()
    assert (await world.service.stats(owner)).total == 1


async def test_a_merge_during_an_outage_of_the_reembedding_waits_for_backfill(
    world: FakeWorld, owner: Owner
) -> None:
    first = await world.service.remember(owner, NewMemory("The user keeps bees."))

    calls = 0
    original = world.embedder.embed

    async def fail_second_call(texts, kind="document"):  # type: ignore[no-untyped-def]
        nonlocal calls
        calls += 1
        if calls == 2:
            raise EmbeddingUnavailable("down")
        return await original(texts, kind)

    world.embedder.embed = fail_second_call  # type: ignore[method-assign]
    merged = await world.service.remember(owner, NewMemory("The user keeps bees!"))
    assert merged.merged is True and merged.memory.id == first.memory.id
    assert merged.memory.embedding_model is None
    world.embedder.embed = original  # type: ignore[method-assign]
    assert await world.service.backfill() == 1


async def test_stats_count_by_type_and_average_importance_now(
    world: FakeWorld, owner: Owner
) -> None:
    await world.service.remember(owner, NewMemory("I like tea.", importance=0.4))
    await world.service.remember(owner, NewMemory("My name is Ada.", importance=0.8))
    stats = await world.service.stats(owner)
    assert stats.total == 2
    assert dict(stats.by_type) == {"preference": 1, "fact": 1}
    assert stats.with_embeddings == 2
    assert stats.avg_importance == pytest.approx(0.6)


async def test_cleanup_records_a_deleted_event_by_system_decay_per_faded_memory_of_each_owner(
    world: FakeWorld, owner: Owner
) -> None:
    other = new_owner()
    faded = [
        (await world.service.remember(
            who, NewMemory(text, memory_type=MemoryType.CONTEXT))).memory.id
        for who, text in ((owner, "Weather was rainy today."), (owner, "The bus was late."),
                          (other, "Lunch was soup."))
    ]
    kept = (await world.service.remember(
        owner, NewMemory("The user is allergic to nuts.", memory_type=MemoryType.FACT))).memory
    world.clock.advance(timedelta(days=365))
    with acting_as(CLI):  # the command line runs it, the decay job is who deletes
        assert await world.service.cleanup(None) == 3
    for who, memory_id in zip((owner, owner, other), faded, strict=True):
        events = await world.history.memory_history(who, memory_id)
        assert [(e.kind, e.actor) for e in events][-1] == (EventKind.DELETED, SYSTEM_DECAY)
    assert [e.kind for e in await world.history.memory_history(owner, kept.id)] == [
        EventKind.CREATED]
    assert (await world.history.verify()).intact
    assert await world.service.cleanup(None) == 0


async def test_an_owner_scoped_cleanup_leaves_other_owners_memories_and_chains_alone(
    world: FakeWorld, owner: Owner
) -> None:
    other = new_owner()
    mine = await world.service.remember(
        owner, NewMemory("Weather was rainy today.", memory_type=MemoryType.CONTEXT))
    theirs = await world.service.remember(
        other, NewMemory("Lunch was soup.", memory_type=MemoryType.CONTEXT))
    world.clock.advance(timedelta(days=365))
    assert await world.service.cleanup(owner) == 1
    assert [e.kind for e in await world.history.memory_history(owner, mine.memory.id)] == [
        EventKind.CREATED, EventKind.DELETED]
    assert [e.kind for e in await world.history.memory_history(other, theirs.memory.id)] == [
        EventKind.CREATED]


async def test_a_cleanup_of_more_owners_than_it_runs_at_once_deletes_and_records_every_one(
    world: FakeWorld,
) -> None:
    owners = [new_owner() for _ in range(OWNERS_AT_ONCE * 2 + 1)]
    faded = {
        who: [(await world.service.remember(who, NewMemory(
            f"Weather was {word} on day {n}.", memory_type=MemoryType.CONTEXT))).memory.id
            for n, word in enumerate(("rainy", "dry"))]
        for who in owners
    }
    world.clock.advance(timedelta(days=365))
    assert await world.service.cleanup(None) == 2 * len(owners)
    for who, ids in faded.items():
        for memory_id in ids:
            events = await world.history.memory_history(who, memory_id)
            assert [e.kind for e in events] == [EventKind.CREATED, EventKind.DELETED]
    assert (await world.history.verify()).intact
