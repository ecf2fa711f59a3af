"""MemoryPortsContract: what the store, candidate search and maintenance (fake or PostgreSQL) show.

Subclass it as `TestSomethingMemoryPorts(MemoryPortsContract)` and provide three fixtures:
`ports` (MemoryPorts over one storage), `owner` (a fresh, unique Owner per test, so a shared
database needs no cleanup) and `dimension` (the embedding size the port stores).
Tests that touch "every owner" only assert about the rows they created themselves.
"""

from __future__ import annotations

import math
from dataclasses import replace
from uuid import uuid4

import pytest

from memlane.domain.model import Heat, MemoryFilter, MemoryType, Owner, StoredMemory
from memlane.ports.storage import MemoryPorts
from tests.contract.builders import T0, at_cosine, axis, insert, minutes, stored
from tests.contract.port_candidates_contract import PortCandidatesContract
from tests.contract.port_maintenance_contract import PortMaintenanceContract
from tests.contract.port_neighbours_contract import PortNeighboursContract
from tests.contract.port_queries_contract import PortQueriesContract
from tests.contract.port_supersession_contract import PortSupersessionContract
from tests.contract.port_topics_contract import PortTopicsContract


def assert_same_row(got: StoredMemory | None, want: StoredMemory) -> None:
    """Every field survives the round trip (embeddings to float32, keywords as a set)."""
    assert got is not None
    assert got.id == want.id
    assert got.owner == want.owner
    assert got.memory_type == want.memory_type
    assert bytes(got.content) == want.content
    assert bytes(got.summary) == want.summary
    assert got.importance == want.importance
    assert got.heat == want.heat
    assert got.created_at == want.created_at
    assert got.updated_at == want.updated_at
    assert got.conversation_id == want.conversation_id
    assert tuple(got.tags) == want.tags
    assert dict(got.metadata) == dict(want.metadata)
    assert got.pinned == want.pinned
    assert got.embedding_model == want.embedding_model
    assert set(got.keywords) == set(want.keywords)
    if want.embedding is None:
        assert got.embedding is None
    else:
        assert got.embedding is not None
        assert len(got.embedding) == len(want.embedding)
        pairs = zip(got.embedding, want.embedding, strict=True)
        assert all(math.isclose(a, b, abs_tol=1e-6) for a, b in pairs)


class MemoryPortsContract(
    PortQueriesContract, PortMaintenanceContract, PortNeighboursContract, PortCandidatesContract,
    PortTopicsContract, PortSupersessionContract,
):
    """Round trips, ownership isolation, update/replace and delete semantics (+ the mixins)."""

    @pytest.fixture
    def other_user(self, owner: Owner) -> Owner:
        return Owner(owner.tenant, owner.user_id + "-other")

    @pytest.fixture
    def other_tenant(self, owner: Owner) -> Owner:
        return Owner(owner.tenant + "-other", owner.user_id)

    async def test_insert_then_get_returns_every_field(
        self, ports: MemoryPorts, owner: Owner, dimension: int
    ) -> None:
        row = stored(
            owner,
            memory_type=MemoryType.CORRECTION,
            importance=0.1,  # a double that a `real` column would not hold exactly
            heat=Heat(0.7123456789012345, access_count=3, accessed_at=T0 + minutes(5)),
            embedding=at_cosine(dimension, 0.6),
            embedding_model="model-x",
            keywords=("k1", "k2", "k3"),
            tags=("alpha", "beta"),
            metadata={"sources": ["chat:1", "chat:2"], "nested": {"n": 1, "ok": True}},
            conversation_id="conv-42",
            pinned=True,
            text="Grüße, ünïcödé ✓",
        )
        await insert(ports.store, row)
        assert_same_row(await ports.store.get(owner, row.id), row)

    async def test_a_memory_without_embedding_round_trips_with_none(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        row = stored(owner, embedding=None, tags=(), metadata={}, conversation_id=None)
        await insert(ports.store, row)
        assert_same_row(await ports.store.get(owner, row.id), row)

    async def test_an_unknown_id_is_none(self, ports: MemoryPorts, owner: Owner) -> None:
        assert await ports.store.get(owner, uuid4()) is None

    async def test_get_many_returns_only_the_owners_rows_among_the_ids(
        self, ports: MemoryPorts, owner: Owner, other_user: Owner
    ) -> None:
        mine = [stored(owner), stored(owner), stored(owner)]
        theirs = stored(other_user)
        await insert(ports.store, *mine, theirs)
        got = await ports.store.get_many(owner, [mine[0].id, mine[2].id, theirs.id, uuid4()])
        assert {m.id for m in got} == {mine[0].id, mine[2].id}

    async def test_get_many_unindexed_is_get_many_without_terms_or_embedding(
        self, ports: MemoryPorts, owner: Owner, other_user: Owner, dimension: int
    ) -> None:
        row = stored(owner, embedding=axis(dimension, 2), keywords=("tea", "green"),
                     tags=("drink",), metadata={"speaker": "Ana"})
        theirs = stored(other_user)
        await insert(ports.store, row, theirs)
        (full,) = await ports.store.get_many(owner, [row.id])
        (lean,) = await ports.store.get_many(owner, [row.id, theirs.id, uuid4()], indexed=False)
        assert lean.keywords == () and lean.embedding is None
        assert lean.embedding_model == full.embedding_model
        assert_same_row(replace(lean, keywords=full.keywords, embedding=full.embedding), row)
        assert await ports.store.get_many(other_user, [row.id], indexed=False) == []

    @pytest.mark.parametrize("intruder", ["other_user", "other_tenant"])
    async def test_another_owner_cannot_see_or_change_a_memory(
        self,
        ports: MemoryPorts,
        owner: Owner,
        dimension: int,
        intruder: str,
        request: pytest.FixtureRequest,
    ) -> None:
        stranger: Owner = request.getfixturevalue(intruder)
        row = stored(owner, embedding=axis(dimension, 0), keywords=("secret",))
        await insert(ports.store, row)

        assert await ports.store.get(stranger, row.id) is None
        assert await ports.store.get_many(stranger, [row.id]) == []
        page = await ports.store.list(stranger, MemoryFilter(), None, 50)
        assert list(page.items) == []
        assert await ports.search.dense_candidates(stranger, axis(dimension, 0), 10) == []
        assert await ports.search.lexical_candidates(stranger, ["secret"], 10) == []
        assert await ports.search.similarities(stranger, [row.id], axis(dimension, 0)) == {}
        async with ports.store.write_session(stranger) as session:
            assert (await session.nearest_many([axis(dimension, 0)]))[0].best is None
        hijacked = stored(stranger, memory_id=row.id, text="hijacked")
        assert await ports.store.update(hijacked) is False
        assert await ports.maintenance.record_access(stranger, [row.id], T0, 0.05) == 0
        assert await ports.store.delete(stranger, row.id) is False
        assert await ports.store.delete_all(stranger) == 0
        assert [m async for m in ports.store.export(stranger)] == []
        assert (await ports.maintenance.stats(stranger, T0, 0.05)).total == 0

        assert_same_row(await ports.store.get(owner, row.id), row)

    async def test_update_overwrites_every_field_of_an_existing_memory(
        self, ports: MemoryPorts, owner: Owner, dimension: int
    ) -> None:
        row = stored(owner, embedding=axis(dimension, 0), keywords=("old",), tags=("a",))
        await insert(ports.store, row)
        changed = stored(
            owner,
            memory_id=row.id,
            memory_type=MemoryType.PREFERENCE,
            importance=0.8,
            heat=Heat(0.8, 2, T0 + minutes(9)),
            embedding=axis(dimension, 1),
            embedding_model="model-y",
            keywords=("new", "newer"),
            tags=("b", "c"),
            metadata={"sources": ["x"]},
            conversation_id="c2",
            pinned=True,
            text="changed",
        )
        assert await ports.store.update(changed) is True
        assert_same_row(await ports.store.get(owner, row.id), changed)
        assert await ports.search.lexical_candidates(owner, ["old"], 10) == []
        renamed = await ports.search.lexical_candidates(owner, ["new"], 10)
        assert [c.id for c in renamed] == [row.id]
        moved = await ports.search.dense_candidates(owner, axis(dimension, 1), 10)
        assert [c.id for c in moved] == [row.id]
        assert moved[0].score == pytest.approx(1.0, abs=1e-5)
        assert moved[0].memory_type == MemoryType.PREFERENCE and moved[0].heat == changed.heat

    async def test_update_of_a_missing_memory_is_false(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        assert await ports.store.update(stored(owner)) is False
        assert list((await ports.store.list(owner, MemoryFilter(), None, 10)).items) == []

    async def test_replace_in_a_write_session_overwrites_the_memory(
        self, ports: MemoryPorts, owner: Owner, dimension: int
    ) -> None:
        row = stored(owner, embedding=axis(dimension, 0))
        await insert(ports.store, row)
        merged = stored(
            owner, memory_id=row.id, embedding=axis(dimension, 2), tags=("m",), text="merged"
        )
        async with ports.store.write_session(owner) as session:
            await session.replace_many([merged])
        assert_same_row(await ports.store.get(owner, row.id), merged)

    async def test_nearest_in_a_write_session_finds_the_most_similar_memory(
        self, ports: MemoryPorts, owner: Owner, dimension: int
    ) -> None:
        far = stored(owner, embedding=at_cosine(dimension, 0.2))
        near = stored(owner, embedding=at_cosine(dimension, 0.9))
        bare = stored(owner, embedding=None)
        await insert(ports.store, far, near, bare)
        async with ports.store.write_session(owner) as session:
            found = (await session.nearest_many([axis(dimension, 0)], neighbours=5))[0]
        hit = found.best
        assert hit is not None
        assert hit.stored.id == near.id
        assert hit.similarity == pytest.approx(0.9, abs=1e-5)
        # The neighbours, best first, leave out memories without an embedding.
        assert [memory_id for memory_id, _ in found.near] == [near.id, far.id]
        assert [s for _, s in found.near] == pytest.approx([0.9, 0.2], abs=1e-5)

    async def test_the_write_probe_gives_at_most_the_neighbours_asked_for(
        self, ports: MemoryPorts, owner: Owner, dimension: int
    ) -> None:
        rows = [stored(owner, embedding=at_cosine(dimension, c)) for c in (0.3, 0.5, 0.7, 0.9)]
        await insert(ports.store, *rows)
        async with ports.store.write_session(owner) as session:
            one, two = await session.nearest_many([axis(dimension, 0)] * 2, neighbours=2)
            (single,) = await session.nearest_many([axis(dimension, 0)])
        assert [i for i, _ in one.near] == [rows[3].id, rows[2].id] == [i for i, _ in two.near]
        assert [i for i, _ in single.near] == [rows[3].id]

    async def test_nearest_is_none_when_nothing_has_an_embedding(
        self, ports: MemoryPorts, owner: Owner, dimension: int
    ) -> None:
        await insert(ports.store, stored(owner, embedding=None))
        async with ports.store.write_session(owner) as session:
            assert (await session.nearest_many([axis(dimension, 0)]))[0].best is None

    async def test_delete_removes_one_memory_and_reports_it(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        keep, drop = stored(owner), stored(owner)
        await insert(ports.store, keep, drop)
        assert await ports.store.delete(owner, drop.id) is True
        assert await ports.store.delete(owner, drop.id) is False
        assert await ports.store.get(owner, drop.id) is None
        assert await ports.store.get(owner, keep.id) is not None

    async def test_delete_all_counts_and_leaves_other_users_alone(
        self, ports: MemoryPorts, owner: Owner, other_user: Owner
    ) -> None:
        theirs = stored(other_user)
        await insert(ports.store, stored(owner), stored(owner), stored(owner), theirs)
        assert await ports.store.delete_all(owner) == 3
        assert await ports.store.delete_all(owner) == 0
        assert await ports.store.get(other_user, theirs.id) is not None


    async def test_a_write_session_reads_its_owners_memories_without_index_terms(
        self, ports: MemoryPorts, owner: Owner, dimension: int
    ) -> None:
        mine = stored(owner, embedding=axis(dimension, 0), keywords=("k1",))
        theirs = stored(Owner(owner.tenant, owner.user_id + "-x"))
        await insert(ports.store, mine, theirs)
        async with ports.store.write_session(owner) as session:
            (row,) = await session.read_many([mine.id, theirs.id, uuid4()])
        assert row.id == mine.id and bytes(row.content) == mine.content
        assert row.embedding is None and tuple(row.keywords) == ()
