"""The assistant's words alone weigh less than the user's: a reply that echoes a question
ranks below the user's own statement, found directly or brought as a neighbour."""

from __future__ import annotations

from dataclasses import replace

import pytest

from memlane.domain.detail import Provenance, Traits
from memlane.domain.errors import InvalidTuning
from memlane.domain.memories import Message, Role
from memlane.domain.policy import MemoryPolicy, RecallTuning
from memlane.domain.retrieval import reply_share
from tests.fakes.world import FakeWorld, new_owner

STATEMENT = "I work as a nurse at the night clinic"
REPLY = "Night clinic nurse work: a night shift nurse at a clinic works long night hours"
QUESTION = "night clinic nurse work"


def _world(reply_weight: float) -> FakeWorld:
    policy = MemoryPolicy()
    recall = replace(policy.recall, reply_weight=reply_weight)
    return FakeWorld(policy=replace(policy, recall=recall))


async def _ranked(reply_weight: float, question: str = QUESTION) -> list[str]:
    """The user's statement, then the assistant's reply sent on its own (as a chat service
    posts a reply after the user's message): the reply shares more of the question's words."""
    world = _world(reply_weight)
    owner = new_owner()
    await world.service.add_messages(owner, "chat", [Message(Role.USER, STATEMENT)])
    await world.service.add_messages(owner, "chat", [Message(Role.ASSISTANT, REPLY)])
    found = await world.service.search(owner, question, limit=5)
    return [hit.memory.content for hit in found]


async def test_the_users_statement_ranks_above_the_reply_that_echoes_it() -> None:
    assert await _ranked(0.5) == [f"user: {STATEMENT}", f"assistant: {REPLY}"]


async def test_with_reply_weight_one_the_reply_that_matches_better_comes_first() -> None:
    assert (await _ranked(1.0))[0] == f"assistant: {REPLY}"


async def test_a_question_about_what_the_assistant_said_finds_the_reply_first() -> None:
    asked = f"What did you say about {QUESTION}?"
    assert (await _ranked(0.5, asked))[0] == f"assistant: {REPLY}"


async def test_a_reply_sent_on_its_own_is_stored_as_replied() -> None:
    world = _world(0.5)
    owner = new_owner()
    added = await world.service.add_messages(owner, "chat", [
        Message(Role.USER, STATEMENT), Message(Role.ASSISTANT, "Noted."),
        Message(Role.ASSISTANT, REPLY, name="assistant"),
    ])
    assert [m.traits.provenance for m in added.memories if m.traits is not None] == [
        Provenance.EXTRACTED, Provenance.REPLIED,
    ]


@pytest.mark.parametrize(("provenance", "share"), [
    (Provenance.REPLIED, 0.3), (Provenance.EXTRACTED, 1.0), (Provenance.STATED, 1.0),
])
def test_only_the_assistants_words_keep_a_share(provenance: Provenance, share: float) -> None:
    assert reply_share(Traits(provenance), 0.3) == share
    assert reply_share(None, 0.3) == 1.0


@pytest.mark.parametrize("weight", [-0.1, 1.5, float("nan")])
def test_a_reply_weight_outside_zero_to_one_is_refused(weight: float) -> None:
    with pytest.raises(InvalidTuning, match="reply_weight"):
        RecallTuning(reply_weight=weight)
