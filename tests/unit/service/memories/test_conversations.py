"""In-process conversation ingestion: memory.add_messages(user_id=, conversation_id=, ...)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memlane.domain.errors import InvalidMemory
from memlane.domain.graph.edges import EdgeKind
from memlane.domain.model import MemoryType
from memlane.service.tenant_memory import TenantMemory
from tests.fakes.world import FakeWorld

T0 = datetime(2030, 3, 1, tzinfo=UTC)


@pytest.fixture
def memory() -> TenantMemory:
    return TenantMemory(FakeWorld().service, tenant="t")


async def test_messages_as_mappings_become_chained_segments(memory: TenantMemory) -> None:
    added = await memory.add_messages(user_id="ana", conversation_id="s1", messages=[
        {"role": "user", "content": "I started learning the violin", "created_at": T0},
        {"role": "assistant", "content": "Wonderful, how is it going?"},
        {"role": "tool", "content": "lesson booked for Friday", "name": "calendar"},
    ])
    first, second = added.memories
    assert first.created_at == T0 and first.conversation_id == "s1"
    assert second.memory_type == MemoryType.TOOL_RESULT
    chain = {(e.source, e.target) for e in added.edges if e.kind == EdgeKind.CHAIN}
    assert chain == {(first.id, second.id), (second.id, first.id)}


async def test_the_same_exchange_twice_is_two_memories(memory: TenantMemory) -> None:
    chat = [{"role": "user", "content": "Hello there"}, {"role": "assistant", "content": "Hi!"}]
    one = await memory.add_messages(user_id="ana", conversation_id="s", messages=chat)
    two = await memory.add_messages(user_id="ana", conversation_id="s", messages=chat)
    assert one.memories[0].id != two.memories[0].id
    assert two.memories[0].metadata["segment"] == 1
    assert (await memory.stats(user_id="ana")).total == 2


@pytest.mark.parametrize("message", [
    {"role": "robot", "content": "beep"},
    {"role": "user", "content": 42},
    {"role": "user", "content": "hi", "mood": "happy"},
    {"role": "user", "content": "hi", "created_at": "yesterday"},
    "just text",
])
async def test_a_malformed_message_is_refused_and_nothing_is_stored(
    memory: TenantMemory, message: object
) -> None:
    with pytest.raises(InvalidMemory):
        await memory.add_messages(
            user_id="ana", conversation_id="s", messages=[message],  # type: ignore[list-item]
        )
    assert (await memory.stats(user_id="ana")).total == 0


async def test_a_blank_conversation_id_is_refused(memory: TenantMemory) -> None:
    with pytest.raises(InvalidMemory, match="conversation_id"):
        await memory.add_messages(
            user_id="ana", conversation_id="  ", messages=[{"role": "user", "content": "hi"}]
        )
