"""Whose fact: a question about one relative finds that relative's memory before another
person's that shares more of its words, in search and context; a question about nobody of
the user's, or the stage off, leaves the ranking as it was."""

from __future__ import annotations

from dataclasses import replace

import pytest

from memlane.domain.errors import InvalidTuning
from memlane.domain.model import NewMemory
from memlane.domain.policy import MemoryPolicy, RecallTuning
from tests.fakes.world import FakeWorld, new_owner

DAUGHTER = "My daughter plays tennis every Saturday morning."
SON = "My son is in a football club."
ASKED = "What does my son play every Saturday morning?"
BROTHER = "My brother went hiking in the Alps last weekend."
MINE = "I went to the lake with a book."
ABOUT_ME = "Where did I go hiking last weekend?"


def _world(whose_weight: float) -> FakeWorld:
    policy = MemoryPolicy()
    return FakeWorld(policy=replace(policy, recall=replace(policy.recall,
                                                           whose_weight=whose_weight)))


async def _first(
    whose_weight: float, question: str = ASKED, memories: tuple[str, str] = (DAUGHTER, SON)
) -> tuple[str, str]:
    """The search's first memory, and the one memory a context of one place holds (a
    context shows its memories by type and relevance, not by match)."""
    world = _world(whose_weight)
    owner = new_owner()
    await world.service.remember_many(owner, [NewMemory(m) for m in memories])
    found = await world.service.search(owner, question, limit=2)
    context = await world.service.retrieve_context(owner, question, 1)
    return found[0].memory.content, context[0].content


async def test_without_the_stage_the_other_childs_memory_that_shares_more_words_comes_first(
) -> None:
    assert await _first(0.0) == (DAUGHTER, DAUGHTER)


async def test_the_relative_asked_about_comes_first_in_search_and_context() -> None:
    assert await _first(0.8) == (SON, SON)


async def test_a_question_about_the_user_finds_their_fact_before_a_relatives() -> None:
    memories = (BROTHER, MINE)
    assert await _first(0.0, ABOUT_ME, memories) == (BROTHER, BROTHER)
    assert await _first(0.8, ABOUT_ME, memories) == (MINE, MINE)


async def test_a_question_about_someone_elses_child_changes_nothing() -> None:
    asked = "What does Anna's son play every Saturday morning?"
    assert await _first(0.8, asked) == await _first(0.0, asked)


@pytest.mark.parametrize("weight", [-0.1, 1.0, float("nan")])
def test_a_whose_weight_outside_zero_to_one_is_refused(weight: float) -> None:
    with pytest.raises(InvalidTuning, match="whose_weight"):
        RecallTuning(whose_weight=weight)
