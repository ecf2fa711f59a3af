"""Filtered HNSW search: a user owning 1 % of 20,000 rows still gets a full, correct top-10."""

from __future__ import annotations

from collections.abc import AsyncIterator
from uuid import uuid4

import asyncpg
import numpy as np
import pytest

from memlane.adapters.postgres.memories import candidates
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.adapters.postgres.memories.rows import vector_array_param, vector_param
from memlane.adapters.postgres.migrations import load_migrations
from memlane.adapters.postgres.pool import init_connection, server_settings
from memlane.domain.model import Owner

pytestmark = pytest.mark.integration

TOTAL_ROWS = 20_000
OWNERS = 100  # each owns 1 % of the rows
DIMENSION = 384
K = 10
OWNER = Owner("dense-probe", "user-7")

# One set-based load of both tables; row g belongs to user-(g % OWNERS).
LOAD = """
WITH rows AS (
    SELECT 'user-' || (g % $2) AS user_id, gen_random_uuid() AS id, e
    FROM unnest($1::vector[]) WITH ORDINALITY AS u(e, g)
), wide AS (
    INSERT INTO memories (tenant, user_id, id, memory_type, content, summary, embedding,
                          embedding_model, created_at, updated_at)
    SELECT 'dense-probe', user_id, id, 'fact', '\\x00', '\\x00', e, 'random', now(), now()
    FROM rows
)
INSERT INTO memory_heat (tenant, user_id, id, memory_type, importance, base_importance,
                         access_count, accessed_at)
SELECT 'dense-probe', user_id, id, 'fact', 0.5, 0.5, 0, now() FROM rows
"""


class Probe:
    """20,000 random unit vectors in a private schema, HNSW index built after the load."""

    def __init__(self, dsn: str, schema: str, vectors: np.ndarray) -> None:
        self.dsn = dsn
        self.schema = schema
        self.vectors = vectors

    async def connect(self, **settings: str) -> asyncpg.Connection:
        connection = await asyncpg.connect(
            self.dsn,
            server_settings={**server_settings(), "search_path": f"{self.schema}, public",
                             **settings},
        )
        await init_connection(connection)
        return connection

    def exact_top(self, query: np.ndarray) -> list[int]:
        """Row numbers of the owner's true nearest rows (brute force)."""
        owned = np.array([g for g in range(1, TOTAL_ROWS + 1) if g % OWNERS == 7])
        similarities = self.vectors[owned - 1] @ query
        return [int(g) for g in owned[np.argsort(-similarities)[:K]]]


@pytest.fixture(scope="module")
async def probe(migrated_database_url: str) -> AsyncIterator[Probe]:
    schema = f"dense_probe_{uuid4().hex[:8]}"
    rng = np.random.default_rng(20_000)
    vectors = rng.standard_normal((TOTAL_ROWS, DIMENSION)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    connection = await asyncpg.connect(migrated_database_url)
    try:
        await connection.execute(f"CREATE SCHEMA {schema}")
        await connection.execute(f"SET search_path = {schema}, public")
        await init_connection(connection)
        create_memories = load_migrations()[0].sql
        await connection.execute(create_memories)
        # The sealed attributes of migration 0110, the topic tokens of 0150, the superseded
        # marker of 0180, the tiers of 0200 and the traits of 0201, which the store's and the
        # candidates' reads select.
        await connection.execute("ALTER TABLE memories ADD COLUMN attributes bytea, "
                                 "ADD COLUMN topic_tokens text[], ADD COLUMN abstract bytea, "
                                 "ADD COLUMN overview bytea")
        await connection.execute("ALTER TABLE memory_heat ADD COLUMN superseded_by uuid, "
                                 "ADD COLUMN valid_until timestamptz, "
                                 "ADD COLUMN provenance text, ADD COLUMN confidence float8, "
                                 "ADD COLUMN valence real, ADD COLUMN arousal real, "
                                 "ADD COLUMN domain text, "
                                 "ADD COLUMN cluster boolean NOT NULL DEFAULT false")
        hnsw = await connection.fetchval(
            "SELECT pg_get_indexdef(to_regclass('memories_embedding_hnsw_idx'))"
        )
        # Building the index once after the load is several times faster than 20k inserts.
        await connection.execute("DROP INDEX memories_embedding_hnsw_idx")
        await connection.execute(LOAD, vector_array_param(list(vectors)), OWNERS, timeout=120)
        await connection.execute(hnsw, timeout=300)
        await connection.execute("ANALYZE memories; ANALYZE memory_heat")
        yield Probe(migrated_database_url, schema, vectors)
    finally:
        await connection.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await connection.close()


def _query(probe: Probe) -> np.ndarray:
    return probe.vectors[7 - 1 + OWNERS * 5]  # one of the owner's own rows


async def test_a_user_owning_one_percent_of_20000_rows_gets_the_exact_top_10(
    probe: Probe,
) -> None:
    pool = await asyncpg.create_pool(
        probe.dsn, min_size=1, max_size=1, init=init_connection,
        server_settings={**server_settings(), "search_path": f"{probe.schema}, public"},
    )
    try:
        query = _query(probe)
        port = postgres_memory_ports(pool)
        found = await port.search.dense_candidates(OWNER, list(query), K)
        owned = await port.store.get_many(OWNER, [c.id for c in found])
    finally:
        await pool.close()
    assert len(found) == K
    assert len(owned) == K  # every candidate is one of the owner's memories
    similarities = [c.score for c in found]
    assert similarities == sorted(similarities, reverse=True)
    expected = sorted((float(probe.vectors[g - 1] @ query) for g in probe.exact_top(query)),
                      reverse=True)
    assert similarities == pytest.approx(expected, abs=1e-5)


@pytest.mark.parametrize(
    ("iterative_scan", "full"), [("relaxed_order", True), ("off", False)]
)
async def test_the_hnsw_path_needs_iterative_scan_for_a_full_top_10(
    probe: Probe, iterative_scan: str, full: bool
) -> None:
    # enable_sort=off forces the HNSW index path (the btree path would need a sort).
    connection = await probe.connect(enable_sort="off", **{"hnsw.iterative_scan": iterative_scan})
    try:
        args = (OWNER.tenant, OWNER.user_id, vector_param(list(_query(probe))), K, -1.0)
        plan = "\n".join(r[0] for r in await connection.fetch("EXPLAIN " + candidates.DENSE, *args))
        records = await connection.fetch(candidates.DENSE, *args)
    finally:
        await connection.close()
    assert "memories_embedding_hnsw_idx" in plan
    assert (len(records) == K) is full
