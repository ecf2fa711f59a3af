"""Decay: idempotent per-type Ebbinghaus curve, floors, cap, reinforcement and access banking."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, strategies as st

from memlane.domain.memories.decay import (
    MAX_REINFORCEMENT,
    TYPE_DECAY,
    accessed,
    base_rate_per_day,
    days_between,
    importance_at,
    raw_importance,
    reinforcement,
)
from memlane.domain.model import Heat, MemoryType

T0 = datetime(2025, 1, 1, tzinfo=UTC)
BASE_RATE = base_rate_per_day(0.95)

memory_types = st.sampled_from(list(MemoryType))
heats = st.builds(
    Heat,
    base_importance=st.floats(min_value=0.0, max_value=1.0),
    access_count=st.integers(min_value=0, max_value=10_000),
    accessed_at=st.just(T0),
)
days = st.floats(min_value=0.0, max_value=3650.0)
decay_factors = st.floats(min_value=0.5, max_value=1.0)


def at_day(day: float) -> datetime:
    return T0 + timedelta(days=day)


def test_base_rate_of_a_095_retention_factor_is_0_0513_per_day() -> None:
    assert base_rate_per_day(0.95) == pytest.approx(0.0513, abs=5e-5)
    assert base_rate_per_day(0.95) == -math.log(0.95)


def test_a_retention_factor_of_one_means_no_decay() -> None:
    assert base_rate_per_day(1.0) == 0.0


@pytest.mark.parametrize("decay_factor", [0.0, -0.1, 1.01, math.nan, math.inf])
def test_a_retention_factor_outside_zero_to_one_is_rejected(decay_factor: float) -> None:
    with pytest.raises(ValueError):
        base_rate_per_day(decay_factor)


def test_type_modifiers_and_floors_are_those_of_the_design() -> None:
    expected = {
        MemoryType.CORRECTION: (0.50, 0.35),
        MemoryType.FACT: (0.70, 0.30),
        MemoryType.PREFERENCE: (0.80, 0.25),
        MemoryType.TOOL_RESULT: (1.00, 0.10),
        MemoryType.CONTEXT: (1.00, 0.10),
    }
    assert {t: (d.modifier, d.floor) for t, d in TYPE_DECAY.items()} == expected


@pytest.mark.parametrize(
    ("access_count", "bonus"),
    [(0, 0.0), (1, 0.005), (10, 0.05), (16, 0.08), (17, 0.08), (10**6, 0.08)],
)
def test_reinforcement_grows_by_half_a_percent_per_access_and_caps_at_0_08(
    access_count: int, bonus: float
) -> None:
    assert reinforcement(access_count) == pytest.approx(bonus, abs=1e-15)
    assert reinforcement(access_count) <= MAX_REINFORCEMENT == 0.08


@pytest.mark.parametrize("access_count", [0, 1, 3, 10])
def test_stability_slows_decay_by_one_plus_log_of_one_plus_accesses(access_count: int) -> None:
    heat = Heat(base_importance=0.8, access_count=access_count, accessed_at=T0)
    stability = 1 + math.log(1 + access_count)
    expected = 0.8 * math.exp(-BASE_RATE * 0.7 / stability * 10)
    assert raw_importance(heat, MemoryType.FACT, at_day(10), BASE_RATE) == pytest.approx(
        expected, rel=1e-12
    )


@pytest.mark.parametrize("day", range(61))
def test_untouched_context_memory_follows_095_per_day_then_sits_on_its_floor(day: int) -> None:
    heat = Heat(base_importance=0.5, access_count=0, accessed_at=T0)
    value = importance_at(heat, MemoryType.CONTEXT, at_day(day), BASE_RATE)
    curve = 0.5 * 0.95**day
    if curve >= 0.1:
        assert value == pytest.approx(curve, rel=1e-12)
    else:
        assert value == 0.1
    # 0.5 * 0.95**d crosses 0.1 between day 31 and day 32.
    assert (day <= 31) == (curve >= 0.1)


@given(heat=heats, memory_type=memory_types, day=st.floats(0.0, 60.0), decay_factor=decay_factors)
def test_a_daily_job_for_any_number_of_days_gives_the_same_value_as_one_run(
    heat: Heat, memory_type: MemoryType, day: float, decay_factor: float
) -> None:
    base_rate = base_rate_per_day(decay_factor)
    # The job only materialises importance; it never writes heat, so every run sees the same heat.
    runs = [importance_at(heat, memory_type, at_day(d), base_rate) for d in range(int(day) + 1)]
    once = importance_at(heat, memory_type, at_day(int(day)), base_rate)
    assert runs[-1] == once
    assert importance_at(heat, memory_type, at_day(day), base_rate) == importance_at(
        heat, memory_type, at_day(day), base_rate
    )


def test_thirty_daily_runs_equal_one_run_at_day_thirty_and_do_not_compound() -> None:
    heat = Heat(base_importance=0.9, access_count=0, accessed_at=T0)
    for day in range(31):
        last = importance_at(heat, MemoryType.FACT, at_day(day), BASE_RATE)
    assert last == importance_at(heat, MemoryType.FACT, at_day(30), BASE_RATE)
    assert last == pytest.approx(0.9 * math.exp(-BASE_RATE * 0.7 * 30), rel=1e-12)
    # The seed's defect would multiply day by day: 0.9 * prod over 30 runs of e^(-rate*0.7*d).
    assert last > 0.9 * math.exp(-BASE_RATE * 0.7 * sum(range(31)))


@given(heat=heats, memory_type=memory_types, earlier=days, later=days)
def test_importance_never_rises_while_a_memory_is_not_accessed(
    heat: Heat, memory_type: MemoryType, earlier: float, later: float
) -> None:
    earlier, later = sorted((earlier, later))
    before = importance_at(heat, memory_type, at_day(earlier), BASE_RATE)
    after = importance_at(heat, memory_type, at_day(later), BASE_RATE)
    assert after <= before


@given(
    heat=st.builds(
        Heat,
        base_importance=st.floats(min_value=0.0, max_value=5.0),
        access_count=st.integers(min_value=0, max_value=10_000),
        accessed_at=st.just(T0),
    ),
    memory_type=memory_types,
    day=st.floats(min_value=-3650.0, max_value=36500.0),
    decay_factor=st.floats(min_value=1e-6, max_value=1.0),
)
def test_importance_stays_between_the_type_floor_and_one(
    heat: Heat, memory_type: MemoryType, day: float, decay_factor: float
) -> None:
    value = importance_at(heat, memory_type, at_day(day), base_rate_per_day(decay_factor))
    assert TYPE_DECAY[memory_type].floor <= value <= 1.0


@pytest.mark.parametrize("memory_type", list(MemoryType))
def test_a_long_forgotten_memory_sits_exactly_on_its_type_floor(memory_type: MemoryType) -> None:
    heat = Heat(base_importance=0.9, access_count=0, accessed_at=T0)
    floor = TYPE_DECAY[memory_type].floor
    assert importance_at(heat, memory_type, at_day(10_000), BASE_RATE) == floor


@given(heat=heats, memory_type=memory_types, skew_days=st.floats(min_value=0.0, max_value=365.0))
def test_a_clock_running_behind_the_last_access_does_not_raise_importance(
    heat: Heat, memory_type: MemoryType, skew_days: float
) -> None:
    at_access = importance_at(heat, memory_type, T0, BASE_RATE)
    assert importance_at(heat, memory_type, at_day(-skew_days), BASE_RATE) <= at_access
    assert days_between(T0, at_day(-skew_days)) == 0.0


@given(heat=heats, memory_type=memory_types, day=days)
def test_an_access_banks_the_decayed_value_counts_and_restarts_the_clock(
    heat: Heat, memory_type: MemoryType, day: float
) -> None:
    now = at_day(day)
    after = accessed(heat, memory_type, now, BASE_RATE)
    assert after.base_importance == raw_importance(heat, memory_type, now, BASE_RATE)
    assert after.access_count == heat.access_count + 1
    assert after.accessed_at == now
    # Right after the access nothing more has decayed: only reinforcement may have grown.
    assert importance_at(after, memory_type, now, BASE_RATE) >= importance_at(
        heat, memory_type, now, BASE_RATE
    )


def test_an_access_with_a_clock_behind_keeps_the_later_access_time() -> None:
    heat = Heat(base_importance=0.7, access_count=2, accessed_at=at_day(5))
    after = accessed(heat, MemoryType.FACT, at_day(4), BASE_RATE)
    assert after.accessed_at == at_day(5)
    assert after.base_importance == 0.7
    assert after.access_count == 3


def test_accessed_memories_decay_more_slowly_afterwards() -> None:
    cold = Heat(base_importance=0.8, access_count=0, accessed_at=T0)
    warm = Heat(base_importance=0.8, access_count=5, accessed_at=T0)
    later = at_day(20)
    assert raw_importance(warm, MemoryType.PREFERENCE, later, BASE_RATE) > raw_importance(
        cold, MemoryType.PREFERENCE, later, BASE_RATE
    )


def test_corrections_fade_slower_than_facts_slower_than_preferences_slower_than_context() -> None:
    heat = Heat(base_importance=0.9, access_count=0, accessed_at=T0)
    later = at_day(10)
    order = [MemoryType.CORRECTION, MemoryType.FACT, MemoryType.PREFERENCE, MemoryType.CONTEXT]
    values = [raw_importance(heat, t, later, BASE_RATE) for t in order]
    assert values == sorted(values, reverse=True)
    assert len(set(values)) == len(values)
