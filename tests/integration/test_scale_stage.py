"""bench/scale.py's staging table on real PostgreSQL: a load starts from an empty stage, so a
load stopped between staging and moving cannot load its rows twice."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import asyncpg
import pytest
from bench import scale_data

pytestmark = pytest.mark.integration


def _rows(count: int) -> list[tuple[object, ...]]:
    now = datetime.now(UTC)
    return [
        ("stage-test", "ana", uuid.uuid4(), "fact", b"c", b"s", ["bench"], False, None, None,
         [], now, 0.5, 0.5, 0, now, b"a")
        for _ in range(count)
    ]


async def test_staging_again_replaces_what_a_stopped_load_left(pg_pool: asyncpg.Pool) -> None:
    async with pg_pool.acquire() as connection:
        try:
            await scale_data.stage(connection, _rows(3))  # a load stopped here, never moved
            await scale_data.stage(connection, _rows(2))
            assert await connection.fetchval("SELECT count(*) FROM bench_stage") == 2
        finally:
            await connection.execute("DROP TABLE IF EXISTS bench_stage")
