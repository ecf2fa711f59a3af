"""What cleanup may not take: a memory carrying the current value of a single-valued fact."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, strategies as st

from memlane.domain.facts.model import (
    FUNCTIONAL_RELATIONS,
    RELATION_TYPES,
    FactType,
    keeps_its_memory,
)
from memlane.domain.memories.cleanup import CleanupCandidate, CleanupRule, may_clean_up

NOW = datetime(2031, 1, 1, tzinfo=UTC)
RULE = CleanupRule(min_importance=0.4, grace_days=7)


def faded(**given: bool) -> CleanupCandidate:
    return CleanupCandidate(0.1, False, NOW - timedelta(days=90), **given)


def test_a_faded_memory_goes_unless_it_carries_a_current_key_fact() -> None:
    assert may_clean_up(faded(), RULE, NOW)
    assert may_clean_up(faded(carries_fact=True), RULE, NOW)  # a fact that accumulates
    assert not may_clean_up(faded(carries_key_fact=True), RULE, NOW)
    assert not may_clean_up(faded(carries_key_fact=True, imported=True), RULE, NOW)


@given(st.builds(CleanupCandidate, importance=st.floats(0, 1), pinned=st.booleans(),
                 arrived_at=st.just(NOW - timedelta(days=30)), imported=st.booleans(),
                 carries_fact=st.booleans(), names_entity=st.booleans(),
                 carries_key_fact=st.just(True)))
def test_no_memory_carrying_a_current_key_fact_is_ever_cleaned_up(
    memory: CleanupCandidate,
) -> None:
    assert not may_clean_up(memory, RULE, NOW)


def test_one_value_at_a_time_and_health_and_safety_keep_their_memory() -> None:
    assert all(keeps_its_memory(r, RELATION_TYPES[r]) for r in FUNCTIONAL_RELATIONS)
    assert keeps_its_memory("allergic_to", FactType.CONSTRAINT)
    assert keeps_its_memory("condition", FactType.CONSTRAINT)
    assert not keeps_its_memory("likes", FactType.PREFERENCE)
    assert not keeps_its_memory("event", FactType.EVENT)
    assert not keeps_its_memory("sister", FactType.IDENTITY)  # siblings accumulate
