"""The conversation prior: hits from a conversation that holds several hits count for more."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import uuid4

import pytest
from hypothesis import given, strategies as st

from memlane.domain.model import Heat, MemoryType, SearchCandidate
from memlane.service.retrieval.candidates import Candidate
from memlane.service.retrieval.conversation_prior import with_conversation_prior

NOW = datetime(2031, 6, 1, tzinfo=UTC)


def candidate(match: float, conversation: str | None) -> Candidate:
    hit = SearchCandidate(
        uuid4(), 0.5, MemoryType.CONTEXT, Heat(0.5, 0, NOW), NOW, conversation
    )
    return Candidate(hit, 0.5, match, False)


def test_a_hit_from_a_conversation_with_several_hits_overtakes_a_lone_equal_one() -> None:
    lone = candidate(0.20, "monday")
    talked = [candidate(0.20, "tuesday"), candidate(0.15, "tuesday"), candidate(0.10, "tuesday")]
    ranked = with_conversation_prior([lone, *talked], 0.5, 3)
    assert ranked[0] is talked[0]
    assert ranked.index(lone) > ranked.index(talked[0])


def test_a_memory_outside_conversations_counts_as_a_conversation_of_one() -> None:
    fact = candidate(0.2, None)
    turn = candidate(0.2, "monday")
    ranked = with_conversation_prior([fact, turn], 0.5, 3)
    assert [c.match for c in ranked] == pytest.approx([0.3, 0.3])


def test_a_zero_weight_changes_nothing() -> None:
    fact, turn = candidate(0.3, None), candidate(0.1, "monday")
    assert with_conversation_prior([fact, turn], 0.0, 3) == [fact, turn]
    assert (fact.match, turn.match) == (0.3, 0.1)


@given(
    st.lists(
        st.tuples(st.floats(min_value=0.0, max_value=1.0),
                  st.sampled_from(["a", "b", "c", None])),
        min_size=1, max_size=30,
    ),
    st.floats(min_value=0.0, max_value=2.0),
    st.integers(min_value=1, max_value=5),
)
def test_a_match_is_raised_by_at_most_the_weight_and_the_order_is_by_match(
    given_matches: list[tuple[float, str | None]], weight: float, hits: int
) -> None:
    # As the fusion hands them over: best first.
    candidates = sorted(
        (candidate(match, conversation) for match, conversation in given_matches),
        key=lambda c: -c.match,
    )
    before = {c.id: c.match for c in candidates}
    ranked = with_conversation_prior(candidates, weight, hits)
    assert {c.id for c in ranked} == set(before)
    for c in ranked:
        assert before[c.id] - 1e-12 <= c.match <= before[c.id] * (1 + weight) + 1e-12
    assert [c.match for c in ranked] == sorted((c.match for c in ranked), reverse=True)
