"""TenantMemory over fakes: the in-process MemoryContextPort a host chat service uses."""

from __future__ import annotations

import pytest

from memlane.domain.errors import InvalidMemory, MemoryNotFound
from memlane.domain.model import MemoryType, PromptContext
from memlane.domain.retrieval.context import PREAMBLE
from memlane.ports.context import MemoryContextPort
from memlane.service.tenant_memory import TenantMemory
from tests.fakes.world import FakeWorld


@pytest.fixture
def world() -> FakeWorld:
    return FakeWorld()


@pytest.fixture
def memory(world: FakeWorld) -> TenantMemory:
    return TenantMemory(world.service, tenant="acme")


async def test_tenant_memory_is_a_memory_context_port(memory: TenantMemory) -> None:
    assert isinstance(memory, MemoryContextPort)


async def test_remember_accepts_the_type_as_a_string_and_scopes_by_tenant(
    memory: TenantMemory, world: FakeWorld
) -> None:
    stored = await memory.remember(user_id="u1", content="Use metric units.",
                                   memory_type="Preference", tags=["units"], pinned=True)
    assert stored.memory_type is MemoryType.PREFERENCE
    assert stored.owner.tenant == "acme" and stored.owner.user_id == "u1"
    assert stored.tags == ("units",) and stored.pinned
    assert await memory.get(user_id="u1", memory_id=stored.id) == stored
    other_tenant = TenantMemory(world.service, tenant="globex")
    with pytest.raises(MemoryNotFound):
        await other_tenant.get(user_id="u1", memory_id=stored.id)


async def test_an_unknown_type_name_is_invalid(memory: TenantMemory) -> None:
    with pytest.raises(InvalidMemory, match="correction"):
        await memory.remember(user_id="u1", content="x", memory_type="rumour")


async def test_an_empty_user_id_is_invalid(memory: TenantMemory) -> None:
    with pytest.raises(InvalidMemory):
        await memory.retrieve_context("", "anything")


async def test_prompt_context_renders_what_the_user_told_before(memory: TenantMemory) -> None:
    await memory.remember(user_id="u1", content="The user lives in Oslo.")
    prompt = await memory.prompt_context("u1", "The user lives in Oslo.")
    assert prompt.text == PREAMBLE + "\n- [context] The user lives in Oslo."
    assert [m.content for m in prompt.memories] == ["The user lives in Oslo."]
    assert await memory.prompt_context("u2", "The user lives in Oslo.") == PromptContext((), "")


async def test_the_conveniences_cover_the_whole_lifecycle(memory: TenantMemory) -> None:
    learned = await memory.learn(user_id="u1", question="I prefer tea over coffee, always.",
                                 answer="Got it, tea it is from now on.")
    assert learned is not None and learned.memory.memory_type is MemoryType.PREFERENCE
    hits = await memory.search(user_id="u1", query="tea")
    assert [h.memory.id for h in hits] == [learned.memory.id]
    updated = await memory.update(user_id="u1", memory_id=learned.memory.id, memory_type="fact")
    assert updated.memory_type is MemoryType.FACT
    page = await memory.list(user_id="u1")
    assert [m.id for m in page.items] == [learned.memory.id]
    assert [m.id async for m in memory.export(user_id="u1")] == [learned.memory.id]
    assert (await memory.stats(user_id="u1")).total == 1
    contexts = await memory.retrieve_context("u1", "tea")
    assert [c.id for c in contexts] == [learned.memory.id]
    await memory.delete(user_id="u1", memory_id=learned.memory.id)
    assert await memory.delete_all(user_id="u1") == 0
