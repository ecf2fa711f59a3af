"""MemoryService write path over fakes: inference, dedup-merge, batching, validation, sealing."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from memlane.domain.errors import InvalidMemory
from memlane.domain.memories import L2_MAX_CHARS
from memlane.domain.model import MemoryFilter, MemoryType, NewMemory, Owner
from memlane.domain.policy import MAX_TAG_CHARS, MAX_TAGS, MemoryPolicy
from tests.contract.builders import at_cosine, axis
from tests.fakes.world import DIMENSION, FakeWorld, new_owner

FIRST = "The user keeps bees on the roof."
SECOND = "Bees live on the roof of the user."


@pytest.fixture
def world() -> FakeWorld:
    return FakeWorld()


@pytest.fixture
def owner() -> Owner:
    return new_owner()


async def count(world: FakeWorld, owner: Owner) -> int:
    return (await world.service.stats(owner)).total


async def test_a_new_memory_gets_type_importance_summary_and_embedding(
    world: FakeWorld, owner: Owner
) -> None:
    result = await world.service.remember(owner, NewMemory("My name is Ada. I write code."))
    memory = result.memory
    assert result.merged is False
    assert memory.memory_type is MemoryType.FACT
    assert memory.importance == pytest.approx(0.30 + 0.35)
    assert memory.summary == "My name is Ada."
    assert memory.created_at == memory.accessed_at == world.clock.now
    assert memory.access_count == 0
    assert memory.embedding_model == world.embedder.model
    assert await world.service.get(owner, memory.id) == memory


async def test_content_and_summary_are_sealed_before_they_reach_storage(
    world: FakeWorld, owner: Owner
) -> None:
    memory = (await world.service.remember(owner, NewMemory("I love hiking in the Alps."))).memory
    stored = await world.memories.store.get(owner, memory.id)
    assert stored is not None
    assert b"hiking" not in stored.content and b"hiking" not in stored.summary
    assert "hiking" not in stored.keywords  # index terms are blinded too


async def test_a_memory_more_similar_than_the_merge_threshold_is_merged(
    world: FakeWorld, owner: Owner
) -> None:
    world.embedder.vectors = {FIRST: axis(DIMENSION, 0), SECOND: at_cosine(DIMENSION, 0.86)}
    first = await world.service.remember(
        owner, NewMemory(FIRST, importance=0.4, tags=("home",), metadata={"sources": ["a"]})
    )
    second = await world.service.remember(
        owner,
        NewMemory(SECOND, importance=0.7, tags=("bees", "home"),
                  metadata={"sources": ["b"], "lang": "en"}),
    )
    assert second.merged is True
    merged = second.memory
    assert merged.id == first.memory.id
    assert merged.content == FIRST + "\n\nAdditional context: " + SECOND
    assert merged.base_importance == pytest.approx(0.7)
    assert merged.tags == ("home", "bees")
    assert merged.metadata == {"sources": ["a", "b"], "lang": "en"}
    assert await count(world, owner) == 1
    # Re-embedded: the merged content was sent to the embedder.
    assert world.embedder.calls[-1] == ([merged.content], "document")
    assert await world.service.get(owner, merged.id) == merged


async def test_a_memory_at_or_below_the_merge_threshold_is_kept_apart(
    world: FakeWorld, owner: Owner
) -> None:
    world.embedder.vectors = {FIRST: axis(DIMENSION, 0), SECOND: at_cosine(DIMENSION, 0.84)}
    await world.service.remember(owner, NewMemory(FIRST))
    second = await world.service.remember(owner, NewMemory(SECOND))
    assert second.merged is False
    assert await count(world, owner) == 2


async def test_merging_keeps_the_existing_importance_when_it_is_higher(
    world: FakeWorld, owner: Owner
) -> None:
    world.embedder.vectors = {FIRST: axis(DIMENSION, 0), SECOND: axis(DIMENSION, 0)}
    await world.service.remember(owner, NewMemory(FIRST, importance=0.8))
    merged = (await world.service.remember(owner, NewMemory(SECOND, importance=0.3))).memory
    assert merged.base_importance == pytest.approx(0.8)


async def test_the_same_text_twice_merges_without_repeating_itself(
    world: FakeWorld, owner: Owner
) -> None:
    await world.service.remember(owner, NewMemory(FIRST))
    again = await world.service.remember(owner, NewMemory(FIRST))
    assert again.merged is True
    assert again.memory.content == FIRST


async def test_memories_of_another_user_are_never_merged_into(world: FakeWorld) -> None:
    alice, bob = new_owner(), new_owner()
    await world.service.remember(alice, NewMemory(FIRST))
    result = await world.service.remember(bob, NewMemory(FIRST))
    assert result.merged is False
    assert await count(world, alice) == await count(world, bob) == 1


async def test_remember_many_embeds_the_batch_in_one_call(
    world: FakeWorld, owner: Owner
) -> None:
    items = [NewMemory(t) for t in ("I like tea.", "My name is Ada.", "Parcel arrives Monday.")]
    results = await world.service.remember_many(owner, items)
    assert [r.merged for r in results] == [False, False, False]
    assert world.embedder.calls == [([i.content for i in items], "document")]
    assert [r.memory.memory_type for r in results] == [
        MemoryType.PREFERENCE, MemoryType.FACT, MemoryType.CONTEXT,
    ]


async def test_remember_many_merges_duplicates_within_the_batch_and_with_the_store(
    world: FakeWorld, owner: Owner
) -> None:
    stored = await world.service.remember(owner, NewMemory("The cat is called Miso."))
    items = [
        NewMemory("The user drives a blue bicycle."),
        NewMemory("The user drives a blue bicycle!"),
        NewMemory("The cat is called Miso."),
    ]
    results = await world.service.remember_many(owner, items)
    assert [r.merged for r in results] == [False, True, True]
    assert results[0].memory.id == results[1].memory.id
    assert results[2].memory.id == stored.memory.id
    assert await count(world, owner) == 2


async def test_an_empty_batch_stores_nothing_and_embeds_nothing(
    world: FakeWorld, owner: Owner
) -> None:
    assert await world.service.remember_many(owner, []) == []
    assert world.embedder.calls == []


async def test_new_memories_keep_a_given_creation_time(world: FakeWorld, owner: Owner) -> None:
    past = world.clock.now - timedelta(days=3)
    memory = (await world.service.remember(owner, NewMemory(FIRST, created_at=past))).memory
    assert memory.created_at == past
    assert memory.updated_at == world.clock.now


@pytest.mark.parametrize(
    "bad",
    [
        NewMemory(""),
        NewMemory("   \n\t"),
        NewMemory("x" * (MemoryPolicy().max_content_bytes + 1)),
        NewMemory("ü" * (MemoryPolicy().max_content_bytes // 2 + 1)),  # 2 bytes each in UTF-8
        NewMemory("fine", importance=1.01),
        NewMemory("fine", importance=-0.01),
        NewMemory("fine", importance=float("nan")),
        NewMemory("fine", tags=tuple(f"t{i}" for i in range(MAX_TAGS + 1))),
        NewMemory("fine", tags=("x" * (MAX_TAG_CHARS + 1),)),
        NewMemory("fine", tags=("",)),
        NewMemory("fine", metadata={"when": object()}),
    ],
)
async def test_invalid_input_is_rejected_and_changes_nothing(
    world: FakeWorld, owner: Owner, bad: NewMemory
) -> None:
    with pytest.raises(InvalidMemory):
        await world.service.remember_many(owner, [NewMemory("a valid memory"), bad])
    assert await count(world, owner) == 0
    assert world.embedder.calls == []


async def test_the_largest_allowed_content_is_accepted_whole_in_parts(
    world: FakeWorld, owner: Owner
) -> None:
    content = "a" * MemoryPolicy().max_content_bytes
    result = await world.service.remember(owner, NewMemory(content))
    parts = [result.memory, *result.parts]
    assert "".join(p.content for p in parts) == content
    assert all(len(p.content) <= L2_MAX_CHARS for p in parts) and len(parts) == 7


async def test_duplicate_tags_are_stored_once(world: FakeWorld, owner: Owner) -> None:
    memory = (await world.service.remember(owner, NewMemory(FIRST, tags=("a", "b", "a")))).memory
    assert memory.tags == ("a", "b")
    page = await world.service.list(owner, MemoryFilter(tag="b"), None, 10)
    assert [m.id for m in page.items] == [memory.id]


async def test_concurrent_identical_writes_do_not_create_twins(
    world: FakeWorld, owner: Owner
) -> None:
    results = await asyncio.gather(
        *(world.service.remember(owner, NewMemory(FIRST)) for _ in range(5))
    )
    assert sorted(r.merged for r in results) == [False, True, True, True, True]
    assert await count(world, owner) == 1


async def test_a_merge_that_would_outgrow_the_content_limit_stores_the_memory_on_its_own() -> None:
    base = "I drink green tea every single morning before work " * 3
    world = FakeWorld(policy=MemoryPolicy(max_content_bytes=len(base) + 40))
    owner = new_owner()
    first = await world.service.remember(owner, NewMemory(content=base.strip()))

    # Not a superset of the first (that would replace it, not grow it): a variation of it.
    variation = base.strip().replace("every single", "each") + " with honey"
    second = await world.service.remember(owner, NewMemory(content=variation))

    assert second.merged is False
    assert second.memory.id != first.memory.id
    assert (await world.service.stats(owner)).total == 2
