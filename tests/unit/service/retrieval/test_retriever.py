"""MemoryService reads over fakes: hybrid search, context selection, access recording, budget."""

from __future__ import annotations

from datetime import timedelta
from itertools import count

import pytest

from memlane.domain.memories.decay import raw_importance
from memlane.domain.model import Memory, MemoryType, NewMemory, Owner
from memlane.domain.policy import DetailTuning, MemoryPolicy, RecallTuning
from memlane.domain.retrieval.context import PREAMBLE, render_line
from tests.contract.builders import at_cosine, axis
from tests.fakes.world import DIMENSION, FakeWorld, new_owner

QUERY = "what should I know about the user"
_axes = count(1)


@pytest.fixture
def world() -> FakeWorld:
    world = FakeWorld()
    world.embedder.vectors[QUERY] = axis(DIMENSION, 0)
    return world


@pytest.fixture
def owner() -> Owner:
    return new_owner()


async def plant(
    world: FakeWorld, owner: Owner, text: str, cosine: float, **fields: object
) -> Memory:
    """Store a memory whose cosine to QUERY is exactly `cosine` (and low to every other one)."""
    world.embedder.vectors[text] = at_cosine(DIMENSION, cosine, other=next(_axes) % DIMENSION or 1)
    result = await world.service.remember(owner, NewMemory(text, **fields))  # type: ignore[arg-type]
    assert result.merged is False
    return result.memory


async def test_search_returns_cosine_similarity_best_first_without_recording_access(
    world: FakeWorld, owner: Owner
) -> None:
    low = await plant(world, owner, "low one", 0.3)
    high = await plant(world, owner, "high one", 0.9)
    hits = await world.service.search(owner, QUERY)
    assert [h.memory.id for h in hits] == [high.id, low.id]
    assert [h.similarity for h in hits] == pytest.approx([0.9, 0.3])
    assert hits[0].relevance > hits[1].relevance
    assert (await world.service.get(owner, high.id)).access_count == 0


async def test_search_finds_a_keyword_match_the_dense_candidates_miss(
    world: FakeWorld, owner: Owner
) -> None:
    world.embedder.vectors["zeppelin"] = axis(DIMENSION, 0)
    pool = RecallTuning().candidate_pool
    for i in range(pool + 10):  # fill the dense candidate pool with closer, keyword-free ones
        await plant(world, owner, f"filler number {i}", 0.4 + i * 0.004)
    keyword = await plant(world, owner, "zeppelin tickets booked", 0.35)
    hits = await world.service.search(owner, "zeppelin", limit=5)
    # Outside the dense pool, found by its word, and first: its cosine is not far off.
    assert hits[0].memory.id == keyword.id
    assert hits[0].similarity == pytest.approx(0.35)


async def test_search_honours_min_similarity_for_every_hit(
    world: FakeWorld, owner: Owner
) -> None:
    await plant(world, owner, "user likes zeppelin rides", 0.1)
    kept = await plant(world, owner, "user owns a zeppelin", 0.8)
    world.embedder.vectors["zeppelin user"] = axis(DIMENSION, 0)
    hits = await world.service.search(owner, "zeppelin user", min_similarity=0.5)
    assert [h.memory.id for h in hits] == [kept.id]


async def test_search_falls_back_to_keywords_when_the_embedder_is_down(
    world: FakeWorld, owner: Owner
) -> None:
    memory = await plant(world, owner, "user owns a zeppelin", 0.8)
    world.embedder.available = False
    hits = await world.service.search(owner, "zeppelin")
    assert [(h.memory.id, h.similarity) for h in hits] == [(memory.id, 0.0)]


async def test_retrieval_records_access_once_for_each_returned_memory(
    world: FakeWorld, owner: Owner
) -> None:
    memory = await plant(world, owner, "the user is a beekeeper", 0.9, importance=0.6)
    now = world.clock.advance(timedelta(days=3))
    contexts = await world.service.retrieve_context(owner, QUERY)
    assert [c.id for c in contexts] == [memory.id]
    assert contexts[0].similarity == pytest.approx(0.9)
    after = await world.service.get(owner, memory.id)
    assert after.access_count == 1
    assert after.accessed_at == now
    expected = raw_importance(memory.heat, memory.memory_type, now, world.policy.base_rate)
    assert after.base_importance == pytest.approx(expected)


async def test_candidates_below_the_rag_threshold_are_not_context(
    world: FakeWorld, owner: Owner
) -> None:
    below = await plant(world, owner, "unrelated errand", world.policy.rag_threshold - 0.05)
    above = await plant(world, owner, "related fact", world.policy.rag_threshold + 0.05)
    contexts = await world.service.retrieve_context(owner, QUERY)
    assert [c.id for c in contexts] == [above.id]
    assert (await world.service.get(owner, below.id)).access_count == 0


async def test_context_is_the_most_relevant_few_ordered_by_type_priority(
    world: FakeWorld, owner: Owner
) -> None:
    kinds = [
        (MemoryType.TOOL_RESULT, 0.9), (MemoryType.CONTEXT, 0.85), (MemoryType.PREFERENCE, 0.8),
        (MemoryType.FACT, 0.75), (MemoryType.CORRECTION, 0.7), (MemoryType.FACT, 0.3),
    ]
    planted = [
        await plant(world, owner, f"memory {i}", c, memory_type=t, importance=0.5)
        for i, (t, c) in enumerate(kinds)
    ]
    contexts = await world.service.retrieve_context(owner, QUERY, limit=5)
    assert [c.memory_type for c in contexts] == [
        MemoryType.CORRECTION, MemoryType.FACT, MemoryType.PREFERENCE,
        MemoryType.CONTEXT, MemoryType.TOOL_RESULT,
    ]
    assert planted[-1].id not in {c.id for c in contexts}  # least relevant one left out
    assert (await world.service.get(owner, planted[-1].id)).access_count == 0


async def test_the_default_context_size_is_the_rag_limit(world: FakeWorld, owner: Owner) -> None:
    for i in range(world.policy.rag_limit + 2):
        await plant(world, owner, f"memory {i}", 0.5 + i * 0.05)
    contexts = await world.service.retrieve_context(owner, QUERY)
    assert len(contexts) == world.policy.rag_limit


async def test_prompt_context_returns_and_records_only_memories_that_fit_the_budget(
    owner: Owner,
) -> None:
    world = FakeWorld(policy=MemoryPolicy(
        context_char_budget=len(PREAMBLE) + 60, detail=DetailTuning(level_of_detail=False)))
    world.embedder.vectors[QUERY] = axis(DIMENSION, 0)
    short = await plant(world, owner, "Short fact.", 0.6, memory_type=MemoryType.FACT)
    long = await plant(world, owner, "A long correction " + "x" * 80, 0.9,
                       memory_type=MemoryType.CORRECTION)
    prompt = await world.service.prompt_context(owner, QUERY)
    assert [m.id for m in prompt.memories] == [short.id]
    assert prompt.text == PREAMBLE + "\n" + render_line(prompt.memories[0])
    assert len(prompt.text) <= world.policy.context_char_budget
    assert (await world.service.get(owner, short.id)).access_count == 1
    assert (await world.service.get(owner, long.id)).access_count == 0


async def test_prompt_context_is_empty_text_when_nothing_is_relevant(
    world: FakeWorld, owner: Owner
) -> None:
    prompt = await world.service.prompt_context(owner, QUERY)
    assert prompt.memories == ()
    assert prompt.text == ""


async def test_another_users_memories_are_never_found(world: FakeWorld, owner: Owner) -> None:
    await plant(world, owner, "the user is a beekeeper", 0.9)
    stranger = Owner(owner.tenant, owner.user_id + "-2")
    assert await world.service.search(stranger, QUERY) == []
    assert await world.service.retrieve_context(stranger, QUERY) == []
