"""Context options: the current conversation left out, the prompt not repeated, a timeline."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memlane.domain.errors import InvalidMemory
from memlane.domain.model import NewMemory, Owner
from memlane.domain.retrieval.context import ContextOptions, ContextOrder
from memlane.service.tenant_memory import TenantMemory
from tests.contract.builders import at_cosine, axis
from tests.fakes.world import DIMENSION, FakeWorld

T0 = datetime(2030, 1, 1, tzinfo=UTC)
Q = "tell me about the garden"
OLD, TODAY = "We planted tulips in the garden", "The garden needs water today"


async def garden() -> tuple[FakeWorld, Owner]:
    world = FakeWorld()
    world.embedder.vectors.update({
        Q: axis(DIMENSION, 0), OLD: at_cosine(DIMENSION, 0.7, other=1),
        TODAY: at_cosine(DIMENSION, 0.75, other=2),
    })
    owner = Owner("t", "gardener")
    await world.service.remember(owner, NewMemory(OLD, conversation_id="spring", created_at=T0))
    await world.service.remember(owner, NewMemory(
        TODAY, conversation_id="now", created_at=T0 + timedelta(days=90)
    ))
    return world, owner


async def test_the_current_conversation_is_left_out_unless_asked_for() -> None:
    world, owner = await garden()
    default = await world.service.retrieve_context(owner, Q, 5, ContextOptions(
        conversation_id="now"
    ))
    assert [m.content for m in default] == [OLD]
    with_current = await world.service.retrieve_context(owner, Q, 5, ContextOptions(
        conversation_id="now", include_current=True
    ))
    assert {m.content for m in with_current} == {OLD, TODAY}
    assert {m.conversation_id for m in with_current} == {"spring", "now"}


async def test_a_memory_already_in_the_prompt_is_not_repeated() -> None:
    world, owner = await garden()
    prompt_text = "the garden needs some water today"
    world.embedder.vectors[prompt_text] = at_cosine(DIMENSION, 0.75, other=2)  # = TODAY
    chosen = await world.service.retrieve_context(owner, Q, 5, ContextOptions(
        active_context=(prompt_text,)
    ))
    assert [m.content for m in chosen] == [OLD]


async def test_a_timeline_is_oldest_first_with_dated_lines() -> None:
    world, owner = await garden()
    prompt = await world.service.prompt_context(owner, Q, 5, ContextOptions(
        order=ContextOrder.TIMELINE
    ))
    assert [m.content for m in prompt.memories] == [OLD, TODAY]
    lines = prompt.text.splitlines()[1:]
    assert lines[0].startswith("- [2030-01-01, entry] We planted tulips")
    assert lines[1].startswith("- [2030-04-01, entry] The garden needs water")


async def test_in_process_options_are_checked() -> None:
    world, _ = await garden()
    memory = TenantMemory(world.service, tenant="t")
    chosen = await memory.retrieve_context("gardener", Q, 5, conversation_id="now")
    assert [m.content for m in chosen] == [OLD]
    with pytest.raises(InvalidMemory):
        await memory.retrieve_context("gardener", Q, 5, order="alphabetical")
    with pytest.raises(InvalidMemory):
        await memory.retrieve_context("gardener", Q, 5, active_context="one text")
