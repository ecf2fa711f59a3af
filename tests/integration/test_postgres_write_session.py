"""Write sessions serialise one user's writes; a wrong-sized vector names `memlane reembed`."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from memlane.adapters.postgres.memories import write_sql
from memlane.adapters.postgres.memories.ports import postgres_memory_ports
from memlane.adapters.postgres.pool import check_embedding_dimension
from memlane.domain.errors import EmbeddingDimensionMismatch
from memlane.domain.model import MemoryFilter, Owner
from memlane.ports.storage import MemoryPorts
from tests.contract.builders import at_cosine, axis, stored

pytestmark = pytest.mark.integration

SESSIONS = 20


async def test_concurrent_identical_writes_leave_one_row(
    ports: MemoryPorts, owner: Owner, dimension: int
) -> None:
    vector = at_cosine(dimension, 0.6)

    async def remember_once() -> bool:
        async with ports.store.write_session(owner) as session:
            if (await session.nearest_many([vector]))[0].best is not None:
                return False
            await asyncio.sleep(0.01)  # widen the race window a lock must close
            await session.insert_many([stored(owner, embedding=vector)])
            return True

    inserted = await asyncio.gather(*(remember_once() for _ in range(SESSIONS)))
    assert inserted.count(True) == 1
    page = await ports.store.list(owner, MemoryFilter(), None, 100)
    assert len(page.items) == 1


async def test_sessions_of_different_users_do_not_wait_for_each_other(
    ports: MemoryPorts, owner: Owner, dimension: int
) -> None:
    other = Owner(owner.tenant, owner.user_id + "-b")
    async with ports.store.write_session(owner) as session:
        await session.insert_many([stored(owner, embedding=axis(dimension, 0))])
        # Would deadlock (and time out) if the lock were not per user.
        async with asyncio.timeout(5), ports.store.write_session(other) as theirs:
            await theirs.insert_many([stored(other, embedding=axis(dimension, 0))])
    assert await ports.store.delete_all(other) == 1


async def test_a_failed_session_rolls_back_its_writes(
    ports: MemoryPorts, owner: Owner
) -> None:
    with pytest.raises(RuntimeError):
        async with ports.store.write_session(owner) as session:
            await session.insert_many([stored(owner)])
            raise RuntimeError("the service failed half-way")
    assert (await ports.store.list(owner, MemoryFilter(), None, 10)).items == []


async def test_a_model_of_another_dimension_is_a_startup_error_naming_reembed(
    pg_pool: asyncpg.Pool,
) -> None:
    await check_embedding_dimension(pg_pool, "all-MiniLM-L6-v2", 384)
    with pytest.raises(EmbeddingDimensionMismatch, match="memlane reembed"):
        await check_embedding_dimension(pg_pool, "nomic-embed-text", 768)


async def test_storing_a_vector_of_another_dimension_names_reembed(
    ports: MemoryPorts, owner: Owner, pg_pool: asyncpg.Pool
) -> None:
    with pytest.raises(EmbeddingDimensionMismatch, match="memlane reembed"):
        async with ports.store.write_session(owner) as session:
            await session.insert_many([stored(owner, embedding=axis(768, 0))])
    with pytest.raises(EmbeddingDimensionMismatch, match="memlane reembed"):
        await ports.search.dense_candidates(owner, axis(768, 0), 5)
    # Without the adapter's own check the database still refuses it once rows exist.
    unchecked = postgres_memory_ports(pg_pool)
    async with unchecked.store.write_session(owner) as session:
        await session.insert_many([stored(owner, embedding=axis(384, 0))])
    with pytest.raises(EmbeddingDimensionMismatch, match="memlane reembed"):
        await unchecked.search.dense_candidates(owner, axis(768, 0), 5)


@pytest.mark.parametrize("scan_once_max", [5000, 0], ids=["scanned-once", "probed-per-vector"])
async def test_nearest_many_gives_each_vector_its_nearest_memory_whichever_way_it_reads(
    ports: MemoryPorts, owner: Owner, dimension: int,
    monkeypatch: pytest.MonkeyPatch, scan_once_max: int,
) -> None:
    # A small owner is scanned once for the whole batch; a big one is probed per vector.
    monkeypatch.setattr(write_sql, "SCAN_ONCE_MAX_MEMORIES", scan_once_max)
    rows = [stored(owner, embedding=axis(dimension, i)) for i in range(4)]
    rows.append(stored(owner, embedding=None))
    stranger = Owner(owner.tenant, owner.user_id + "-s")
    async with ports.store.write_session(stranger) as session:
        await session.insert_many([stored(stranger, embedding=at_cosine(dimension, 0.99))])
    async with ports.store.write_session(owner) as session:
        await session.insert_many(rows)
        found = await session.nearest_many([
            at_cosine(dimension, 0.9), axis(dimension, 3),
            at_cosine(dimension, 0.2, base=3, other=2),
        ], neighbours=3)
    hits = [f.best for f in found]
    assert [h.stored.id if h else None for h in hits] == [rows[0].id, rows[3].id, rows[2].id]
    assert all(
        len(f.near) == 3 and h is not None and f.near[0][0] == h.stored.id
        for f, h in zip(found, hits, strict=True)
    )
    assert hits[0] is not None and hits[0].similarity == pytest.approx(0.9, abs=1e-6)
    assert hits[1] is not None and hits[1].stored.content == rows[3].content
    await ports.store.delete_all(stranger)
