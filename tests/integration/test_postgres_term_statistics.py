"""BM25 statistics and postings kept by the memories triggers, and lexical search over them."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import asyncpg
import pytest

from memlane.adapters.postgres.memories.lexical_reading import LexicalReading
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.adapters.postgres.pool import restore_postings
from memlane.domain.memories.cleanup import CleanupRule
from memlane.domain.model import Heat, MemoryType, Owner, StoredMemory
from memlane.ports.storage import MemoryPorts
from tests.contract.builders import T0, axis, insert, stored

pytestmark = pytest.mark.integration

TERMS = "SELECT term, df FROM memory_terms WHERE tenant = $1 AND user_id = $2"
TOTALS = "SELECT n, total_length FROM memory_owner_stats WHERE tenant = $1 AND user_id = $2"


async def statistics(pool: asyncpg.Pool, owner: Owner) -> tuple[dict[str, int], tuple[int, int]]:
    terms = {r["term"]: r["df"] for r in await pool.fetch(TERMS, owner.tenant, owner.user_id)}
    totals = await pool.fetchrow(TOTALS, owner.tenant, owner.user_id)
    return terms, (0, 0) if totals is None else (totals["n"], totals["total_length"])


def expected(rows: list[StoredMemory]) -> tuple[dict[str, int], tuple[int, int]]:
    """df counts each memory once per distinct term; length is its distinct terms."""
    df = Counter(term for row in rows for term in set(row.keywords))
    return dict(df), (len(rows), sum(len(set(row.keywords)) for row in rows))


POSTINGS = """
SELECT term, -neg_tf AS tf, dl, id FROM memory_postings
WHERE owner_key = memlane_owner_hash($1, $2)
"""


async def assert_postings(pool: asyncpg.Pool, owner: Owner, rows: list[StoredMemory]) -> None:
    """One posting per memory and distinct term: its occurrences and the memory's length."""
    actual = sorted(tuple(r) for r in await pool.fetch(POSTINGS, owner.tenant, owner.user_id))
    wanted = []
    for row in rows:
        counts = Counter(row.keywords)
        for term, tf in counts.items():
            key = await pool.fetchval("SELECT memlane_term_hash($1)", term)
            wanted.append((key, tf, len(counts), row.id))
    assert actual == sorted(wanted)


@pytest.fixture
def port(pg_pool: asyncpg.Pool) -> MemoryPorts:
    return postgres_memory_ports(pg_pool, dimension=384)


async def test_inserts_count_each_memorys_distinct_terms_once(
    pg_pool: asyncpg.Pool, port: MemoryPorts, owner: Owner
) -> None:
    rows = [
        stored(owner, keywords=("tea", "tea", "green")),
        stored(owner, keywords=("tea", "black")),
        stored(owner, keywords=()),
    ]
    await insert(port.store, *rows)
    assert await statistics(pg_pool, owner) == expected(rows)
    assert (await statistics(pg_pool, owner))[0] == {"tea": 2, "green": 1, "black": 1}
    await assert_postings(pg_pool, owner, rows)


async def test_deletes_decrement_and_drop_terms_no_memory_holds_any_more(
    pg_pool: asyncpg.Pool, port: MemoryPorts, owner: Owner
) -> None:
    keep, gone = stored(owner, keywords=("tea", "green")), stored(owner, keywords=("tea", "rare"))
    await insert(port.store, keep, gone)
    assert await port.store.delete(owner, gone.id)
    terms, totals = await statistics(pg_pool, owner)
    assert terms == {"tea": 1, "green": 1}
    assert totals == (1, 2)
    await assert_postings(pg_pool, owner, [keep])


async def test_a_keyword_update_moves_the_counts_and_an_embedding_update_does_not(
    pg_pool: asyncpg.Pool, port: MemoryPorts, owner: Owner
) -> None:
    row = stored(owner, keywords=("tea", "green"))
    other = stored(owner, keywords=("tea",))
    await insert(port.store, row, other)
    changed = replace(row, keywords=("coffee", "green", "strong"))
    assert await port.store.update(changed)
    assert await statistics(pg_pool, owner) == expected([changed, other])
    await assert_postings(pg_pool, owner, [changed, other])
    assert await port.maintenance.set_embeddings([(owner, other.id, axis(384, 0))], "model-y") == 1
    assert await statistics(pg_pool, owner) == expected([changed, other])
    await assert_postings(pg_pool, owner, [changed, other])


async def test_cleanup_and_delete_all_keep_every_owners_statistics_exact(
    pg_pool: asyncpg.Pool, port: MemoryPorts, owner: Owner
) -> None:
    neighbour = Owner(owner.tenant, owner.user_id + "-n")
    faint = Heat(0.05, 0, T0)  # a context memory at its floor, 0.1, at T0
    faded = stored(owner, keywords=("old", "tea"), memory_type=MemoryType.CONTEXT, heat=faint)
    kept = stored(owner, keywords=("tea", "new"), heat=Heat(0.9, 0, T0))
    theirs = [stored(neighbour, keywords=("tea", "old"), memory_type=MemoryType.CONTEXT,
                     heat=faint)]
    await insert(port.store, faded, kept, *theirs)
    assert await port.maintenance.cleanup(owner, CleanupRule(0.1, 0), T0, 0.1) == 1
    assert await statistics(pg_pool, owner) == expected([kept])
    assert await statistics(pg_pool, neighbour) == expected(theirs)
    await assert_postings(pg_pool, owner, [kept])
    await assert_postings(pg_pool, neighbour, theirs)
    assert await port.store.delete_all(owner) == 1
    assert await statistics(pg_pool, owner) == ({}, (0, 0))
    assert await statistics(pg_pool, neighbour) == expected(theirs)
    await assert_postings(pg_pool, owner, [])
    await assert_postings(pg_pool, neighbour, theirs)


async def test_a_term_rarer_than_the_cap_is_read_whole_and_a_commoner_one_best_first(
    pg_pool: asyncpg.Pool, owner: Owner
) -> None:
    # 5 postings per term: "zebra" (2 memories) is read whole; of "common" (31 memories) the
    # 5 best for BM25 are read: the shortest memories holding it.
    port = postgres_memory_ports(pg_pool, lexical_reading=LexicalReading(5, 5))
    crowd = [stored(owner, keywords=("common", *(f"w{i}-{j}" for j in range(1 + i % 10))))
             for i in range(30)]
    both = stored(owner, keywords=("common", "zebra"))
    rare = stored(owner, keywords=("zebra", "stripe", "mane"))
    await insert(port.store, *crowd, both, rare)
    found = await port.search.lexical_candidates(owner, ["common", "zebra"], 50)
    assert [c.id for c in found[:2]] == [both.id, rare.id]
    assert found[0].score > found[1].score > found[2].score > 0
    shortest = sorted(crowd, key=lambda r: (len(r.keywords), str(r.id)))
    # `both` (2 terms) is among the 5 shortest holders of "common"; 4 of the crowd join it.
    assert {c.id for c in found[2:]} == {r.id for r in shortest[:4]}


async def test_a_small_owner_gets_every_term_matched_as_in_full_bm25(
    pg_pool: asyncpg.Pool, owner: Owner
) -> None:
    port = postgres_memory_ports(pg_pool, lexical_reading=LexicalReading(50, 50))
    crowd = [stored(owner, keywords=("common", f"w{i}")) for i in range(30)]
    rare = stored(owner, keywords=("zebra", "stripe"))
    await insert(port.store, *crowd, rare)
    found = await port.search.lexical_candidates(owner, ["common", "zebra"], 100)
    assert found[0].id == rare.id
    assert {c.id for c in found} == {r.id for r in [*crowd, rare]}


async def test_another_owners_postings_never_surface(
    pg_pool: asyncpg.Pool, port: MemoryPorts, owner: Owner
) -> None:
    stranger = Owner(owner.tenant, owner.user_id + "-s")
    mine = stored(owner, keywords=("zebra",))
    await insert(port.store, mine, stored(stranger, keywords=("zebra",)))
    assert [c.id for c in await port.search.lexical_candidates(owner, ["zebra"], 10)] == [mine.id]


async def test_postings_lost_in_a_crash_are_rebuilt_when_a_connection_opens(
    pg_pool: asyncpg.Pool, port: MemoryPorts, owner: Owner
) -> None:
    rows = [stored(owner, keywords=("zebra", "stripe", "zebra")), stored(owner, keywords=("tea",))]
    await insert(port.store, *rows)
    async with pg_pool.acquire() as connection:
        assert await restore_postings(connection) == 0  # nothing lost: nothing done
        # Crash recovery empties an UNLOGGED table exactly like this.
        await connection.execute("TRUNCATE memory_postings")
    assert await port.search.lexical_candidates(owner, ["zebra"], 10) == []
    async with pg_pool.acquire() as connection:
        assert await restore_postings(connection) >= 3
    await assert_postings(pg_pool, owner, rows)
    found = await port.search.lexical_candidates(owner, ["zebra"], 10)
    assert [c.id for c in found] == [rows[0].id]
