"""A conversation turn is embedded with its date and speaker on every path, not only on write."""

from __future__ import annotations

from datetime import UTC, datetime

from memlane.domain.model import MemoryPatch, NewMemory
from tests.fakes.world import FakeWorld, new_owner

SAID_ON = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def turn(content: str) -> NewMemory:
    return NewMemory(content=content, metadata={"speaker": "Caroline"}, created_at=SAID_ON)


async def test_editing_a_turns_content_embeds_it_with_date_and_speaker() -> None:
    world, owner = FakeWorld(), new_owner()
    stored = await world.service.remember(owner, turn("I went to a support group yesterday"))
    world.embedder.calls.clear()

    await world.service.update(owner, stored.memory.id, MemoryPatch(content="I went hiking"))

    assert world.embedder.calls == [(["08 May 2023. Caroline: I went hiking"], "document")]


async def test_changing_only_tags_does_not_embed_again() -> None:
    world, owner = FakeWorld(), new_owner()
    stored = await world.service.remember(owner, turn("I went to a support group yesterday"))
    world.embedder.calls.clear()

    await world.service.update(owner, stored.memory.id, MemoryPatch(tags=("health",)))

    assert world.embedder.calls == []


async def test_renaming_a_turns_speaker_embeds_it_again() -> None:
    world, owner = FakeWorld(), new_owner()
    stored = await world.service.remember(owner, turn("I went to a support group yesterday"))
    world.embedder.calls.clear()

    await world.service.update(owner, stored.memory.id, MemoryPatch(metadata={"speaker": "Mel"}))

    assert world.embedder.calls == [
        (["08 May 2023. Mel: I went to a support group yesterday"], "document")
    ]


async def test_backfill_embeds_a_turn_with_date_and_speaker() -> None:
    world, owner = FakeWorld(), new_owner()
    world.embedder.available = False
    await world.service.remember(owner, turn("I went to a support group yesterday"))
    world.embedder.available = True
    world.embedder.calls.clear()

    assert await world.service.backfill() == 1

    assert world.embedder.calls == [
        (["08 May 2023. Caroline: I went to a support group yesterday"], "document")
    ]
