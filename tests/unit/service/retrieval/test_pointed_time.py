"""A question that points at a time ("four weeks ago") ranks what was said then higher."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from memlane.domain.model import NewMemory
from memlane.domain.policy import MemoryPolicy
from memlane.domain.retrieval import ContextOptions
from tests.fakes.world import FakeWorld, new_owner

ASKED = datetime(2031, 4, 1, 9, 0, tzinfo=UTC)
THEN = "Lena showed me her camera lens at the club"
EARLIER = "Lena showed me her camera gear and her camera bag"
QUESTION = "What camera gear did Lena show me four weeks ago?"


async def _ranked(time_weight: float, asked_at: datetime | None) -> list[str]:
    policy = MemoryPolicy()
    recall = replace(policy.recall, time_weight=time_weight)
    world = FakeWorld(policy=replace(policy, recall=recall))
    owner = new_owner()
    for text, weeks in ((EARLIER, 10), (THEN, 4)):
        await world.service.remember(owner, NewMemory(
            text, created_at=ASKED - timedelta(weeks=weeks), conversation_id=f"w{weeks}",
        ))
    found = await world.service.search(owner, QUESTION, limit=5, asked_at=asked_at)
    return [hit.memory.content for hit in found]


async def test_what_was_said_at_the_time_pointed_at_comes_first() -> None:
    assert (await _ranked(1.0, ASKED))[0] == THEN


async def test_without_the_weight_the_better_word_match_comes_first() -> None:
    assert (await _ranked(0.0, ASKED))[0] == EARLIER


async def test_the_time_is_read_against_the_asking_not_the_clock() -> None:
    """Asked now (the fake clock), "four weeks ago" points at neither memory."""
    assert (await _ranked(1.0, None))[0] == EARLIER


async def test_context_reads_the_asking_time_from_its_options() -> None:
    policy = MemoryPolicy()
    world = FakeWorld(policy=policy)
    owner = new_owner()
    for text, weeks in ((EARLIER, 10), (THEN, 4)):
        await world.service.remember(owner, NewMemory(
            text, created_at=ASKED - timedelta(weeks=weeks), conversation_id=f"w{weeks}",
        ))
    chosen = await world.service.retrieve_context(
        owner, QUESTION, 1, ContextOptions(asked_at=ASKED)
    )
    assert [c.content for c in chosen] == [THEN]
