"""MemoryPorts contract, reads: order, keyset pagination, filters, dense/lexical search, export."""

from __future__ import annotations

from uuid import UUID

import pytest

from memlane.domain.model import Cursor, MemoryFilter, MemoryType, Owner
from memlane.ports.memories.store import MemoryStorePort
from memlane.ports.storage import MemoryPorts
from tests.contract.builders import T0, at_cosine, axis, insert, minutes, stored


async def all_pages(
    store: MemoryStorePort, owner: Owner, filters: MemoryFilter, limit: int
) -> list[UUID]:
    """Follow next_cursor to the end, collecting ids in page order."""
    ids: list[UUID] = []
    cursor: Cursor | None = None
    for _ in range(1000):
        page = await store.list(owner, filters, cursor, limit)
        assert len(page.items) <= limit
        ids.extend(m.id for m in page.items)
        if page.next_cursor is None:
            return ids
        cursor = page.next_cursor
    raise AssertionError("pagination never ended")


class PortQueriesContract:
    """Read paths of MemoryPorts; fixtures come from the concrete test class."""

    async def test_list_is_newest_first(self, ports: MemoryPorts, owner: Owner) -> None:
        rows = [stored(owner, created_at=T0 + minutes(i)) for i in (3, 1, 4, 0, 2)]
        await insert(ports.store, *rows)
        page = await ports.store.list(owner, MemoryFilter(), None, 10)
        assert [m.created_at for m in page.items] == [T0 + minutes(i) for i in (4, 3, 2, 1, 0)]
        assert page.next_cursor is None

    async def test_pages_neither_skip_nor_repeat(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        rows = [stored(owner, created_at=T0 + minutes(i)) for i in range(7)]
        await insert(ports.store, *rows)
        expected = [r.id for r in reversed(rows)]
        for limit in (1, 2, 3, 7, 8):
            assert await all_pages(ports.store, owner, MemoryFilter(), limit) == expected

    async def test_a_full_last_page_has_no_next_cursor(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        await insert(ports.store, *(stored(owner, created_at=T0 + minutes(i)) for i in range(4)))
        first = await ports.store.list(owner, MemoryFilter(), None, 2)
        assert first.next_cursor is not None
        second = await ports.store.list(owner, MemoryFilter(), first.next_cursor, 2)
        assert len(second.items) == 2
        assert second.next_cursor is None

    async def test_rows_with_equal_timestamps_are_ordered_by_id_descending(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        rows = [stored(owner, created_at=T0) for _ in range(5)]
        await insert(ports.store, *rows)
        expected = sorted((r.id for r in rows), reverse=True)
        assert await all_pages(ports.store, owner, MemoryFilter(), 2) == expected

    async def test_rows_inserted_between_pages_do_not_shift_the_pages(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        rows = [stored(owner, created_at=T0 + minutes(i)) for i in range(5)]
        await insert(ports.store, *rows)
        first = await ports.store.list(owner, MemoryFilter(), None, 2)
        assert [m.id for m in first.items] == [rows[4].id, rows[3].id]
        newer = stored(owner, created_at=T0 + minutes(10))
        older = stored(owner, created_at=T0 - minutes(10))
        await insert(ports.store, newer, older)
        seen = [m.id for m in first.items]
        cursor = first.next_cursor
        while cursor is not None:
            page = await ports.store.list(owner, MemoryFilter(), cursor, 2)
            seen.extend(m.id for m in page.items)
            cursor = page.next_cursor
        assert seen == [rows[i].id for i in (4, 3, 2, 1, 0)] + [older.id]

    async def test_list_filters_by_type_tag_conversation_and_min_importance(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        fact = stored(owner, memory_type=MemoryType.FACT, importance=0.8, tags=("home", "x"))
        pref = stored(owner, memory_type=MemoryType.PREFERENCE, importance=0.3, tags=("home",),
                      conversation_id="c1")
        ctx = stored(owner, memory_type=MemoryType.CONTEXT, importance=0.1, conversation_id="c1")
        await insert(ports.store, fact, pref, ctx)

        async def ids(filters: MemoryFilter) -> set[UUID]:
            return set(await all_pages(ports.store, owner, filters, 10))

        assert await ids(MemoryFilter(memory_type=MemoryType.PREFERENCE)) == {pref.id}
        assert await ids(MemoryFilter(tag="home")) == {fact.id, pref.id}
        assert await ids(MemoryFilter(tag="nope")) == set()
        assert await ids(MemoryFilter(conversation_id="c1")) == {pref.id, ctx.id}
        # min_importance compares the materialised importance, inclusive.
        assert await ids(MemoryFilter(min_importance=0.3)) == {fact.id, pref.id}
        assert await ids(MemoryFilter(tag="home", conversation_id="c1")) == {pref.id}

    async def test_filtered_pagination_neither_skips_nor_repeats(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        rows = [
            stored(owner, created_at=T0 + minutes(i), tags=("even",) if i % 2 == 0 else ())
            for i in range(9)
        ]
        await insert(ports.store, *rows)
        expected = [r.id for r in reversed(rows) if r.tags]
        assert await all_pages(ports.store, owner, MemoryFilter(tag="even"), 2) == expected

    async def test_dense_search_is_best_first_with_cosine_similarity(
        self, ports: MemoryPorts, owner: Owner, dimension: int
    ) -> None:
        cosines = [0.1, 0.9, -0.3, 0.5]
        rows = [stored(owner, embedding=at_cosine(dimension, c)) for c in cosines]
        await insert(ports.store, *rows, stored(owner, embedding=None))
        found = await ports.search.dense_candidates(owner, axis(dimension, 0), 10)
        assert [c.score for c in found] == pytest.approx([0.9, 0.5, 0.1, -0.3], abs=1e-5)
        assert [c.id for c in found] == [rows[1].id, rows[3].id, rows[0].id, rows[2].id]

    async def test_dense_search_honours_limit_and_min_similarity(
        self, ports: MemoryPorts, owner: Owner, dimension: int
    ) -> None:
        rows = [stored(owner, embedding=at_cosine(dimension, c)) for c in (0.1, 0.9, 0.5, 0.45)]
        await insert(ports.store, *rows)
        above = await ports.search.dense_candidates(owner, axis(dimension, 0), 10, 0.4)
        assert [c.id for c in above] == [rows[1].id, rows[2].id, rows[3].id]
        top = await ports.search.dense_candidates(owner, axis(dimension, 0), 2, min_similarity=0.4)
        assert [c.id for c in top] == [rows[1].id, rows[2].id]

    async def test_lexical_search_finds_shared_terms_and_ranks_more_matches_higher(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        both = stored(owner, keywords=("h-coffee", "h-morning", "h-black"))
        one = stored(owner, keywords=("h-coffee", "h-tea"))
        none = stored(owner, keywords=("h-tea", "h-evening"))
        await insert(ports.store, one, none, both)
        found = await ports.search.lexical_candidates(owner, ["h-coffee", "h-morning"], 10)
        assert [c.id for c in found] == [both.id, one.id]
        assert found[0].score > found[1].score > 0
        top = await ports.search.lexical_candidates(owner, ["h-coffee", "h-morning"], 1)
        assert [c.id for c in top] == [both.id]
        assert await ports.search.lexical_candidates(owner, ["h-absent"], 10) == []
        assert await ports.search.lexical_candidates(owner, [], 10) == []

    async def test_export_streams_every_memory_oldest_first(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        rows = [stored(owner, created_at=T0 + minutes(i)) for i in (2, 0, 3, 1)]
        await insert(ports.store, *rows)
        exported = [m async for m in ports.store.export(owner)]
        assert [m.created_at for m in exported] == [T0 + minutes(i) for i in range(4)]
        assert {bytes(m.content) for m in exported} == {r.content for r in rows}

    async def test_a_rare_shared_term_outranks_a_term_most_memories_hold(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        crowd = [stored(owner, keywords=("h-common", f"h-w{i}")) for i in range(12)]
        rare = stored(owner, keywords=("h-zebra", "h-stripe"))
        await insert(ports.store, *crowd, rare)
        found = await ports.search.lexical_candidates(owner, ["h-common", "h-zebra"], 20)
        assert found[0].id == rare.id
        assert {c.id for c in found} == {r.id for r in [*crowd, rare]}

    async def test_search_candidates_read_in_full_are_the_sealed_rows_with_their_terms(
        self, ports: MemoryPorts, owner: Owner, dimension: int
    ) -> None:
        row = stored(owner, embedding=axis(dimension, 0), keywords=("h-kiwi",), text="kiwi")
        await insert(ports.store, row, stored(owner, embedding=axis(dimension, 1), text="fig"))
        dense = await ports.search.dense_candidates(owner, axis(dimension, 0), 1)
        lexical = await ports.search.lexical_candidates(owner, ["h-kiwi"], 1)
        assert [c.id for c in dense] == [c.id for c in lexical] == [row.id]
        fetched = await ports.store.get_many(owner, [dense[0].id, lexical[0].id])
        assert [bytes(m.content) for m in fetched] == [row.content]
        assert [tuple(m.keywords) for m in fetched] == [("h-kiwi",)]
