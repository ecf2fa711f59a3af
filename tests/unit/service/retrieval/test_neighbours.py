"""Conversation neighbours: an on-topic turn near a hit beats a filler turn nearer to it."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from hypothesis import given, strategies as st

from memlane.domain.model import NewMemory
from memlane.domain.policy import MemoryPolicy
from memlane.service.retrieval.neighbours import on_topic
from tests.contract.builders import at_cosine, axis
from tests.fakes.world import DIMENSION, FakeWorld, new_owner

QUERY = "sailing news"
cosines = st.floats(min_value=-1.0, max_value=1.0)
shares = st.floats(min_value=0.0, max_value=1.0)


@given(cosines, st.floats(min_value=0.01, max_value=1.0), shares)
def test_a_neighbour_keeps_between_one_minus_the_share_and_all_of_its_inheritance(
    similarity: float, best: float, share: float
) -> None:
    assert 1.0 - share - 1e-12 <= on_topic(similarity, best, share) <= 1.0 + 1e-12


@given(cosines, cosines, st.floats(min_value=0.01, max_value=1.0), shares)
def test_a_closer_neighbour_never_keeps_less(
    one: float, other: float, best: float, share: float
) -> None:
    low, high = sorted((one, other))
    assert on_topic(low, best, share) <= on_topic(high, best, share)


@given(cosines, st.floats(min_value=-1.0, max_value=0.0), shares)
def test_without_a_share_or_a_positive_best_cosine_nothing_is_scaled(
    similarity: float, best: float, share: float
) -> None:
    assert on_topic(similarity, 0.5, 0.0) == 1.0
    assert on_topic(similarity, best, share) == 1.0


def test_cosines_count_from_the_models_floor_for_an_unrelated_turn() -> None:
    # multilingual-e5-small: a filler turn at 0.75 against the best seed's 0.90. Counted from
    # 0 it looks on topic (0.83 of the best); from the model's floor 0.73 it is not (0.12).
    assert on_topic(0.75, 0.90, 0.5) > 0.9
    assert on_topic(0.75, 0.90, 0.5, floor=0.73) < 0.6
    assert on_topic(0.90, 0.90, 0.5, floor=0.73) == 1.0
    assert on_topic(0.70, 0.72, 0.5, floor=0.73) == 1.0  # seeds at the floor: nothing scaled


@given(cosines, cosines, st.floats(min_value=-0.5, max_value=0.9), shares)
def test_with_a_floor_a_closer_neighbour_still_never_keeps_less(
    one: float, other: float, floor: float, share: float
) -> None:
    low, high = sorted((one, other))
    best = min(1.0, floor + 0.05)
    kept = on_topic(low, best, share, floor), on_topic(high, best, share, floor)
    assert 1.0 - share - 1e-12 <= kept[0] <= kept[1] <= 1.0 + 1e-12


async def _context(relevance: float) -> list[str]:
    """A conversation: filler right before a strong hit, an on-topic turn two places after
    it (neither reaches rag_threshold on its own); the context has room for two."""
    policy = MemoryPolicy()
    world = FakeWorld(policy=replace(
        policy, recall=replace(policy.recall, neighbour_relevance=relevance)
    ))
    world.embedder.vectors[QUERY] = axis(DIMENSION, 0)
    owner = new_owner()
    start = datetime(2031, 6, 1, 9, 0, tzinfo=UTC)
    turns = [
        ("ok thanks, talk soon", 0.0),
        ("we sailed to the island and back", 0.9),
        ("nice", 0.0),
        ("wind dropped so we rowed home", 0.22),
    ]
    for at, (text, cosine) in enumerate(turns):
        world.embedder.vectors[text] = at_cosine(DIMENSION, cosine, other=at + 1)
        await world.service.remember(owner, NewMemory(
            text, conversation_id="trip", created_at=start + timedelta(minutes=at),
        ))
    chosen = await world.service.retrieve_context(owner, QUERY, 2)
    return [c.content for c in chosen]


async def test_an_on_topic_turn_two_places_away_beats_filler_next_to_the_hit() -> None:
    assert set(await _context(0.5)) == {
        "we sailed to the island and back", "wind dropped so we rowed home",
    }


async def test_without_the_relevance_share_the_nearest_filler_comes_first() -> None:
    assert set(await _context(0.0)) == {"we sailed to the island and back", "ok thanks, talk soon"}
