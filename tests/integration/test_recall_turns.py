"""Conversation turns through the real stack: never merged, embedded with date and speaker."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memlane.domain.model import NewMemory, Owner
from memlane.service.memory_service import MemoryService

pytestmark = pytest.mark.integration

START = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def turn(text: str, speaker: str, minute: int) -> NewMemory:
    return NewMemory(
        text,
        conversation_id="conv/session_1",
        created_at=START + timedelta(minutes=minute),
        metadata={"speaker": speaker, "sources": [f"D1:{minute}"]},
    )


async def test_turns_that_say_the_same_thing_stay_separate_memories(
    service: MemoryService, owner: Owner
) -> None:
    turns = [
        turn("Thanks so much!", "Ana", 1),
        turn("Thanks so much!", "Ana", 2),
        turn("I love painting sunsets.", "Ana", 3),
        turn("I love painting sunrises.", "Ana", 4),
    ]
    results = await service.remember_many(owner, turns)
    assert [r.merged for r in results] == [False] * 4
    assert (await service.stats(owner)).total == 4


async def test_a_repeated_plain_fact_still_merges_and_keeps_both_sources(
    service: MemoryService, owner: Owner
) -> None:
    first = NewMemory("I live in Lisbon.", metadata={"sources": ["a"]})
    second = NewMemory("I live in Lisbon.", metadata={"sources": ["b"]})
    results = await service.remember_many(owner, [first, second])
    assert [r.merged for r in results] == [False, True]
    assert results[1].memory.metadata["sources"] == ["a", "b"]


async def test_a_turn_is_found_by_its_speaker_and_returned_without_the_prefix(
    service: MemoryService, owner: Owner
) -> None:
    await service.remember_many(
        owner,
        [
            turn("I ran my first marathon last weekend.", "Ilse", 1),
            turn("The bakery on the corner closed down.", "Bram", 2),
        ],
    )
    chosen = await service.retrieve_context(owner, "What did Ilse do?", 1)
    assert [c.content for c in chosen] == ["I ran my first marathon last weekend."]
