"""MemoryService edits over fakes: update semantics, delete, ownership, listing and export."""

from __future__ import annotations

from datetime import timedelta
from uuid import uuid4

import pytest

from memlane.domain.errors import InvalidMemory, MemoryNotFound
from memlane.domain.model import Memory, MemoryFilter, MemoryPatch, MemoryType, NewMemory, Owner
from tests.fakes.world import FakeWorld, new_owner


@pytest.fixture
def world() -> FakeWorld:
    return FakeWorld()


@pytest.fixture
def owner() -> Owner:
    return new_owner()


async def accessed_twice(world: FakeWorld, owner: Owner, text: str) -> Memory:
    memory = (await world.service.remember(owner, NewMemory(text, importance=0.6))).memory
    for _ in range(2):
        world.clock.advance(timedelta(days=1))
        await world.service.retrieve_context(owner, text)
    return await world.service.get(owner, memory.id)


async def test_changing_content_re_embeds_re_summarises_and_re_indexes(
    world: FakeWorld, owner: Owner
) -> None:
    memory = (await world.service.remember(owner, NewMemory("The user drinks tea."))).memory
    now = world.clock.advance(timedelta(hours=1))
    updated = await world.service.update(
        owner, memory.id, MemoryPatch(content="The user drinks coffee. Every morning.")
    )
    assert updated.content == "The user drinks coffee. Every morning."
    assert updated.summary == "The user drinks coffee."
    assert updated.updated_at == now and updated.created_at == memory.created_at
    assert world.embedder.calls[-1] == (["The user drinks coffee. Every morning."], "document")
    assert [h.memory.id for h in await world.service.search(owner, "coffee", limit=1)] == [
        memory.id
    ]
    stored = await world.memories.store.get(owner, memory.id)
    assert stored is not None and b"coffee" not in stored.content
    assert await world.memories.search.lexical_candidates(
        owner, world.encryption.blind_terms(owner.tenant, ["tea"]), 5
    ) == []


async def test_setting_importance_restarts_decay_and_keeps_the_access_count(
    world: FakeWorld, owner: Owner
) -> None:
    before = await accessed_twice(world, owner, "The user is a beekeeper.")
    assert before.access_count == 2
    now = world.clock.advance(timedelta(days=10))
    updated = await world.service.update(owner, before.id, MemoryPatch(importance=0.9))
    assert updated.base_importance == 0.9
    assert updated.accessed_at == now
    assert updated.access_count == 2
    assert updated.importance == pytest.approx(min(1.0, 0.9 + 2 * 0.005))


async def test_other_fields_change_without_touching_heat_or_embedding(
    world: FakeWorld, owner: Owner
) -> None:
    memory = (await world.service.remember(owner, NewMemory("The user is a beekeeper."))).memory
    calls = len(world.embedder.calls)
    updated = await world.service.update(
        owner, memory.id,
        MemoryPatch(memory_type=MemoryType.CORRECTION, tags=("bees", "bees"), pinned=True,
                    metadata={"sources": ["edit"]}),
    )
    assert updated.memory_type is MemoryType.CORRECTION
    assert updated.tags == ("bees",)
    assert updated.pinned is True
    assert updated.metadata == {"sources": ["edit"]}
    assert updated.heat == memory.heat
    assert updated.embedding_model == memory.embedding_model
    assert len(world.embedder.calls) == calls


@pytest.mark.parametrize(
    "patch", [MemoryPatch(content=" "), MemoryPatch(importance=2.0), MemoryPatch(tags=("",))]
)
async def test_an_invalid_patch_is_rejected_and_changes_nothing(
    world: FakeWorld, owner: Owner, patch: MemoryPatch
) -> None:
    memory = (await world.service.remember(owner, NewMemory("The user is a beekeeper."))).memory
    with pytest.raises(InvalidMemory):
        await world.service.update(owner, memory.id, patch)
    assert await world.service.get(owner, memory.id) == memory


async def test_another_users_memory_is_not_found(world: FakeWorld, owner: Owner) -> None:
    memory = (await world.service.remember(owner, NewMemory("The user is a beekeeper."))).memory
    for stranger in (Owner(owner.tenant, "someone-else"), Owner("other-tenant", owner.user_id)):
        with pytest.raises(MemoryNotFound):
            await world.service.get(stranger, memory.id)
        with pytest.raises(MemoryNotFound):
            await world.service.update(stranger, memory.id, MemoryPatch(pinned=True))
        with pytest.raises(MemoryNotFound):
            await world.service.delete(stranger, memory.id)
        assert await world.service.delete_all(stranger) == 0
    assert await world.service.get(owner, memory.id) == memory


async def test_delete_removes_the_memory_and_a_second_delete_is_not_found(
    world: FakeWorld, owner: Owner
) -> None:
    memory = (await world.service.remember(owner, NewMemory("The user is a beekeeper."))).memory
    await world.service.delete(owner, memory.id)
    with pytest.raises(MemoryNotFound):
        await world.service.delete(owner, memory.id)
    with pytest.raises(MemoryNotFound):
        await world.service.get(owner, memory.id)
    with pytest.raises(MemoryNotFound):
        await world.service.update(owner, uuid4(), MemoryPatch(pinned=True))


async def test_delete_all_erases_every_memory_of_the_user(world: FakeWorld, owner: Owner) -> None:
    for text in ("I like tea.", "My name is Ada.", "Bus at nine."):
        await world.service.remember(owner, NewMemory(text))
    assert await world.service.delete_all(owner) == 3
    assert (await world.service.stats(owner)).total == 0


async def test_list_pages_newest_first_and_export_streams_oldest_first(
    world: FakeWorld, owner: Owner
) -> None:
    ids = []
    for text in ("I like tea.", "My name is Ada.", "Bus at nine."):
        ids.append((await world.service.remember(owner, NewMemory(text))).memory.id)
        world.clock.advance(timedelta(minutes=1))
    first = await world.service.list(owner, MemoryFilter(), None, 2)
    second = await world.service.list(owner, MemoryFilter(), first.next_cursor, 2)
    assert [m.id for m in [*first.items, *second.items]] == ids[::-1]
    assert second.next_cursor is None
    assert [m.id async for m in world.service.export(owner)] == ids
    with pytest.raises(InvalidMemory):
        await world.service.list(owner, MemoryFilter(), None, 0)
