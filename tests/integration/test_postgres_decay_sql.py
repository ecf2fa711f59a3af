"""The SQL forgetting curve agrees with the domain's to 1e-9 (the formula lives in both)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import asyncpg
import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from memlane.domain.memories.decay import (
    MAX_REINFORCEMENT,
    REINFORCEMENT_PER_ACCESS,
    TYPE_DECAY,
    accessed,
    base_rate_per_day,
    importance_at,
)
from memlane.domain.model import Heat, MemoryType

pytestmark = pytest.mark.integration

T0 = datetime(2030, 1, 1, tzinfo=UTC)

IMPORTANCE = """
SELECT memlane_importance($1, $2, $3, $4, $5, $6, $7, $8, $9),
       memlane_raw_importance($1, $2, $3, $4, $6, $7)
"""

heats = st.builds(
    Heat,
    base_importance=st.floats(0.0, 1.0),
    access_count=st.integers(0, 10_000),
    # Microsecond steps over ±3 years around T0: timestamptz keeps microseconds exactly.
    accessed_at=st.integers(-10**14, 10**14).map(lambda us: T0 + timedelta(microseconds=us)),
)
elapsed = st.integers(-10**12, 2 * 10**14).map(lambda us: timedelta(microseconds=us))
rates = st.sampled_from([0.5, 0.9, 0.95, 0.99, 1.0]).map(base_rate_per_day)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
# Years of steep decay: PostgreSQL's exp() raises on underflow where Python returns 0.0.
@example(
    heat=Heat(0.5, 0, T0), memory_type=MemoryType.CONTEXT, after=timedelta(days=3000),
    base_rate=base_rate_per_day(0.5),
)
@given(heat=heats, memory_type=st.sampled_from(list(MemoryType)), after=elapsed, base_rate=rates)
async def test_sql_importance_matches_the_domain(
    pg_pool: asyncpg.Pool, heat: Heat, memory_type: MemoryType, after: timedelta, base_rate: float
) -> None:
    now = heat.accessed_at + after
    decay = TYPE_DECAY[memory_type]
    async with pg_pool.acquire() as connection:
        importance, raw = await connection.fetchrow(
            IMPORTANCE, heat.base_importance, heat.access_count, heat.accessed_at,
            decay.modifier, decay.floor, now, base_rate, REINFORCEMENT_PER_ACCESS,
            MAX_REINFORCEMENT,
        )
    assert importance == pytest.approx(importance_at(heat, memory_type, now, base_rate), abs=1e-9)
    banked = accessed(heat, memory_type, now, base_rate)
    assert raw == pytest.approx(banked.base_importance, abs=1e-9)


async def test_the_access_bonus_comes_from_the_parameters_python_binds(
    pg_pool: asyncpg.Pool,
) -> None:
    """Its constants are not written in SQL: other numbers bound give another bonus."""
    heat = Heat(0.5, 10, T0)  # no time passes, so importance = 0.5 + bonus
    decay = TYPE_DECAY[MemoryType.CONTEXT]
    found = []
    async with pg_pool.acquire() as connection:
        for per_access, cap in (
            (REINFORCEMENT_PER_ACCESS, MAX_REINFORCEMENT),
            (2 * REINFORCEMENT_PER_ACCESS, 2 * MAX_REINFORCEMENT),
        ):
            row = await connection.fetchrow(
                IMPORTANCE, heat.base_importance, heat.access_count, heat.accessed_at,
                decay.modifier, decay.floor, T0, 0.05, per_access, cap,
            )
            found.append(row[0])
    domain, doubled = found
    assert domain == pytest.approx(0.5 + min(10 * REINFORCEMENT_PER_ACCESS, MAX_REINFORCEMENT))
    assert doubled == pytest.approx(0.5 + min(20 * REINFORCEMENT_PER_ACCESS, 2 * MAX_REINFORCEMENT))
