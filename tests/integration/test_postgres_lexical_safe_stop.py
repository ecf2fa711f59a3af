"""The lexical search's safe early stop (migration 0250): exact BM25 top k from a few passes
over the impact-ordered postings, checked against BM25 computed here from the keywords."""

from __future__ import annotations

import math
from collections import Counter
from uuid import UUID, uuid4

import asyncpg
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from memlane.adapters.postgres.memories.lexical_reading import LexicalReading
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.domain.model import Owner, StoredMemory
from tests.contract.builders import insert, stored

pytestmark = pytest.mark.integration

EVERY_POSTING = 10**9
# Few words, most of them common, so the shallow first passes leave postings unread.
VOCABULARY = [f"w{i}" for i in range(12)]


def bm25(rows: list[StoredMemory], query: list[str]) -> dict[UUID, float]:
    """BM25 as docs/recall.md defines it: k1 1.2, b 0.75, length = distinct terms."""
    counts = {row.id: Counter(row.keywords) for row in rows}
    n = len(rows)
    avgdl = max(sum(len(c) for c in counts.values()) / max(n, 1), 1.0)
    df = Counter(term for c in counts.values() for term in c)
    scores: dict[UUID, float] = {}
    for memory_id, c in counts.items():
        score = 0.0
        for term in set(query) & set(c):
            idf = math.log(1 + (n - df[term] + 0.5) / (df[term] + 0.5))
            score += idf * c[term] * 2.2 / (c[term] + 1.2 * (0.25 + 0.75 * len(c) / avgdl))
        if score > 0:
            scores[memory_id] = score
    return scores


def assert_exact_top(found: list[tuple[UUID, float]], truth: dict[UUID, float], k: int) -> None:
    """The scores are the k best, and each id's score is its true one (ties in any order)."""
    best = sorted(truth.values(), reverse=True)[:k]
    assert [score for _, score in found] == pytest.approx(best, rel=1e-9, abs=1e-12)
    for memory_id, score in found:
        assert truth[memory_id] == pytest.approx(score, rel=1e-9, abs=1e-12)


memories = st.lists(
    st.lists(st.sampled_from(VOCABULARY[:3]) | st.sampled_from(VOCABULARY), min_size=1,
             max_size=8),
    min_size=20, max_size=60,
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    texts=memories,
    query=st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=5),
    k=st.integers(1, 8),
    depth=st.integers(1, 4),
)
async def test_the_top_k_is_exact_bm25_whatever_the_first_depth(
    pg_pool: asyncpg.Pool, texts: list[list[str]], query: list[str], k: int, depth: int
) -> None:
    owner = Owner("default", f"lexical-{uuid4()}")
    port = postgres_memory_ports(pg_pool)
    rows = [stored(owner, keywords=tuple(words)) for words in texts]
    await insert(port.store, *rows)
    async with pg_pool.acquire() as connection:
        found = [(r["id"], r["score"]) for r in await connection.fetch(
            "SELECT id, score FROM memlane_lexical_top($1, $2, $3, $4, $5, $6, $4, $6)",
            owner.tenant, owner.user_id, query, k, depth, EVERY_POSTING)]
    assert_exact_top(found, bm25(rows, query), k)


async def test_a_long_memory_holding_every_common_term_is_found_past_the_shorter_ones(
    pg_pool: asyncpg.Pool, owner: Owner
) -> None:
    # 40 short memories hold one of "tea" or "garden" each; the one memory that holds both is
    # the longest, so it is the last posting of both terms: a fixed read of each term's 5
    # best postings misses it; starting from 5, the safe stop reads on until nothing unread
    # can beat it.
    crowd = [stored(owner, keywords=(("tea", "garden")[i % 2], f"x{i}", f"z{i}"))
             for i in range(40)]
    both = stored(owner, keywords=("tea", "garden", "y0", "y1"))
    await insert(postgres_memory_ports(pg_pool).store, *crowd, both)
    capped = postgres_memory_ports(pg_pool, lexical_reading=LexicalReading(5, 5))
    assert both.id not in {c.id for c in await capped.search.lexical_candidates(
        owner, ["tea", "garden"], 3)}
    async with pg_pool.acquire() as connection:
        found = [(r["id"], r["score"]) for r in await connection.fetch(
            "SELECT id, score FROM memlane_lexical_top($1, $2, $3, 3, 5, $4, 3, $4)",
            owner.tenant, owner.user_id, ["tea", "garden"], EVERY_POSTING)]
    assert found[0][0] == both.id
    assert_exact_top(found, bm25([*crowd, both], ["tea", "garden"]), 3)


async def test_a_rare_term_settles_the_top_in_one_shallow_pass(
    pg_pool: asyncpg.Pool, owner: Owner
) -> None:
    # "zebra" is held by two memories and "tea" by 200: after one pass of 2 postings per term
    # nothing unread of "tea" can lift a memory to the zebras' scores, so the search stops.
    crowd = [stored(owner, keywords=("tea", f"x{i}", f"y{i}")) for i in range(200)]
    zebras = [stored(owner, keywords=("zebra", "tea")), stored(owner, keywords=("zebra",))]
    await insert(postgres_memory_ports(pg_pool).store, *crowd, *zebras)
    async with pg_pool.acquire() as connection, connection.transaction():
        await connection.execute("SET LOCAL track_functions = 'all'")
        found = await connection.fetch(
            "SELECT id, score FROM memlane_lexical_top($1, $2, $3, 2, 2, $4, 2, $4)",
            owner.tenant, owner.user_id, ["zebra", "tea"], EVERY_POSTING)
        passes = await connection.fetchval(
            "SELECT calls FROM pg_stat_xact_user_functions"
            " WHERE funcname = 'memlane_lexical_pass'")
    assert {r["id"] for r in found} == {z.id for z in zebras}
    assert_exact_top([(r["id"], r["score"]) for r in found], bm25([*crowd, *zebras],
                     ["zebra", "tea"]), 2)
    assert passes == 1


async def test_an_owner_without_the_terms_gets_nothing(pg_pool: asyncpg.Pool, owner: Owner) -> None:
    await insert(postgres_memory_ports(pg_pool).store, stored(owner, keywords=("tea",)))
    port = postgres_memory_ports(pg_pool)
    assert await port.search.lexical_candidates(owner, ["coffee"], 5) == []
    stranger = Owner(owner.tenant, owner.user_id + "-nobody")
    assert await port.search.lexical_candidates(stranger, ["tea"], 5) == []
