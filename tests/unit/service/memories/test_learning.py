"""MemoryService.learn over fakes: short pairs are skipped, the rest classified and scored."""

from __future__ import annotations

import pytest

from memlane.domain.model import MemoryType
from tests.fakes.world import FakeWorld, new_owner

ANSWER = "Noted, I will keep that in mind for later."


@pytest.fixture
def world() -> FakeWorld:
    return FakeWorld()


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Too short, really", ANSWER),  # 17 characters
        ("My name is Ada and I live in Oslo.", "Okay, Ada."),
        ("   padded but short   ", ANSWER),
    ],
)
async def test_learn_skips_pairs_shorter_than_twenty_characters(
    world: FakeWorld, question: str, answer: str
) -> None:
    owner = new_owner()
    assert await world.service.learn(owner, question, answer) is None
    assert (await world.service.stats(owner)).total == 0
    assert world.embedder.calls == []


async def test_learn_keeps_a_pair_of_exactly_twenty_characters(world: FakeWorld) -> None:
    result = await world.service.learn(new_owner(), "q" * 20, "a" * 20)
    assert result is not None


async def test_learn_stores_the_pair_as_q_and_a_with_a_qa_summary(world: FakeWorld) -> None:
    result = await world.service.learn(
        new_owner(), "What is the capital of France?", "Paris is the capital of France.",
        conversation_id="conv-1", tags=("geo",), metadata={"sources": ["chat:9"]},
    )
    assert result is not None
    memory = result.memory
    assert memory.content == "Q: What is the capital of France?\nA: Paris is the capital of France."
    assert memory.summary == (
        "Q: What is the capital of France? → A: Paris is the capital of France."
    )
    assert memory.conversation_id == "conv-1"
    assert memory.tags == ("geo",)
    assert memory.metadata == {"sources": ["chat:9"]}


@pytest.mark.parametrize(
    ("question", "memory_type", "importance"),
    [
        ("From now on your name is Jarvis, okay?", MemoryType.FACT, 0.30 + 0.40),
        ("Actually, I meant the other meeting room.", MemoryType.CORRECTION, 0.30 + 0.30),
        ("I prefer my coffee black without sugar.", MemoryType.PREFERENCE, 0.30 + 0.25),
        ("My name is Ada and I live in Oslo.", MemoryType.FACT, 0.30 + 0.35),
        ("What is the weather like in Oslo today?", MemoryType.CONTEXT, 0.30),
        ("Ich heiße Ada und ich mag Kaffee sehr.", MemoryType.PREFERENCE, 0.30 + 0.35 + 0.25),
    ],
)
async def test_learn_classifies_and_scores_the_question_by_the_heuristics(
    world: FakeWorld, question: str, memory_type: MemoryType, importance: float
) -> None:
    # The answer is short enough that question + answer stay between 5 and 19 words.
    result = await world.service.learn(new_owner(), question, "Understood, thank you.")
    assert result is not None
    assert result.memory.memory_type is memory_type
    assert result.memory.base_importance == pytest.approx(importance)


async def test_learn_counts_the_answer_words_toward_importance(world: FakeWorld) -> None:
    long_answer = " ".join(["word"] * 60)
    result = await world.service.learn(new_owner(), "What is the weather in Oslo?", long_answer)
    assert result is not None
    assert result.memory.base_importance == pytest.approx(0.30 + 0.10)
