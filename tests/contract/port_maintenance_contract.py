"""MemoryPorts contract, maintenance: stats, access, decay, cleanup, embedding backfill."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from statistics import fmean
from uuid import uuid4

import pytest

from memlane.domain.memories.cleanup import CleanupRule
from memlane.domain.memories.decay import accessed, importance_at
from memlane.domain.model import Heat, MemoryType, Owner, StoredMemory
from memlane.domain.reach import TenantReach
from memlane.ports.storage import MemoryPorts
from tests.contract.builders import T0, axis, insert, stored

BASE_RATE = 0.05129329438755058  # -ln(0.95)
DAY = timedelta(days=1)
LONG_AGO = datetime(1990, 1, 1, tzinfo=UTC)
NO_GRACE = CleanupRule(min_importance=0.1, grace_days=0)
WEEK_OF_GRACE = CleanupRule(min_importance=0.1, grace_days=7)


def exact_importance(row: StoredMemory, now: datetime) -> float:
    return importance_at(row.heat, row.memory_type, now, BASE_RATE)


def varied_rows(owner: Owner) -> list[StoredMemory]:
    """Rows of every type and heat, with a stale materialised importance of 0.99."""
    heats = [
        Heat(0.9, 0, T0 - 40 * DAY),
        Heat(0.6, 3, T0 - 2 * DAY),
        Heat(0.3, 20, T0 - 100 * DAY),
        Heat(0.5, 1, T0),
        Heat(0.2, 0, T0 - 400 * DAY),
    ]
    return [
        stored(owner, memory_type=kind, heat=heat, importance=0.99, created_at=T0 - 500 * DAY)
        for kind, heat in zip(MemoryType, heats, strict=True)
    ]


async def cleanup_rows(
    ports: MemoryPorts, owner: Owner, other_user: Owner
) -> tuple[StoredMemory, ...]:
    """Stored: the owner's rows at, below, pinned at and just above min importance 0.1 (at
    T0), and another user's row at it."""
    fresh = Heat(0.1, 0, T0)  # importance 0.1 at T0 for context and tool results
    rows = (
        stored(owner, memory_type=MemoryType.CONTEXT, heat=fresh),
        stored(owner, memory_type=MemoryType.TOOL_RESULT, heat=Heat(0.05, 0, T0)),
        stored(owner, memory_type=MemoryType.CONTEXT, heat=fresh, pinned=True),
        stored(owner, memory_type=MemoryType.CONTEXT, heat=Heat(0.1000001, 0, T0)),
        stored(other_user, memory_type=MemoryType.CONTEXT, heat=fresh),
    )
    await insert(ports.store, *rows)
    return rows


class PortMaintenanceContract:
    """Maintenance paths of MemoryPorts; fixtures come from the concrete test class."""

    async def test_stats_count_types_embeddings_and_average_importance_at_now(
        self, ports: MemoryPorts, owner: Owner, dimension: int
    ) -> None:
        rows = varied_rows(owner)
        rows[0] = stored(owner, memory_type=MemoryType.FACT, heat=rows[0].heat, importance=0.99,
                         embedding=axis(dimension, 0))
        rows.append(stored(owner, memory_type=MemoryType.FACT, importance=0.99,
                           embedding=axis(dimension, 1)))
        await insert(ports.store, *rows)
        now = T0 + 10 * DAY
        stats = await ports.maintenance.stats(owner, now, BASE_RATE)
        assert stats.total == 6
        assert {k: v for k, v in stats.by_type.items() if v} == {
            "fact": 2, "preference": 1, "correction": 1, "tool_result": 1, "context": 1,
        }
        assert stats.with_embeddings == 2
        expected = fmean(exact_importance(r, now) for r in rows)
        assert stats.avg_importance == pytest.approx(expected, abs=1e-9)

    async def test_stats_of_an_empty_owner_are_zero(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        stats = await ports.maintenance.stats(owner, T0, BASE_RATE)
        assert (stats.total, stats.with_embeddings, stats.avg_importance) == (0, 0, 0.0)
        assert not any(stats.by_type.values())

    async def test_stats_for_everyone_include_this_owners_rows(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        await insert(ports.store, *varied_rows(owner))
        everyone = await ports.maintenance.stats(None, T0, BASE_RATE)
        assert everyone.total >= 5
        assert everyone.by_type.get("correction", 0) >= 1

    async def test_record_access_updates_heat_exactly_like_the_domain(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        rows = varied_rows(owner)
        await insert(ports.store, *rows)
        now = T0 + 5 * DAY
        touched, untouched = rows[:3], rows[3:]
        touched_ids = [r.id for r in touched]
        count = await ports.maintenance.record_access(owner, touched_ids, now, BASE_RATE)
        assert count == 3
        for row in touched:
            want = accessed(row.heat, row.memory_type, now, BASE_RATE)
            got = await ports.store.get(owner, row.id)
            assert got is not None
            assert got.heat.access_count == want.access_count
            assert got.heat.accessed_at == want.accessed_at == now
            assert got.heat.base_importance == pytest.approx(want.base_importance, abs=1e-9)
        for row in untouched:
            got = await ports.store.get(owner, row.id)
            assert got is not None and got.heat == row.heat

    async def test_record_access_ignores_unknown_ids(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        row = stored(owner)
        await insert(ports.store, row)
        assert await ports.maintenance.record_access(owner, [], T0, BASE_RATE) == 0
        assert await ports.maintenance.record_access(owner, [uuid4(), row.id], T0, BASE_RATE) == 1

    async def test_materialise_decay_writes_importance_at_now_and_is_idempotent(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        rows = varied_rows(owner)
        await insert(ports.store, *rows)
        day_10, day_30 = T0 + 10 * DAY, T0 + 30 * DAY
        assert await ports.maintenance.materialise_decay(owner, day_10, BASE_RATE) == len(rows)
        moved = sum(exact_importance(r, day_10) != exact_importance(r, day_30) for r in rows)
        assert await ports.maintenance.materialise_decay(owner, day_30, BASE_RATE) == moved
        assert await ports.maintenance.materialise_decay(owner, day_30, BASE_RATE) == 0
        for row in rows:
            got = await ports.store.get(owner, row.id)
            assert got is not None
            # Running at day 10 first changes nothing about day 30: no compounding.
            assert got.importance == pytest.approx(exact_importance(row, day_30), abs=1e-9)
            assert got.heat == row.heat

    async def test_materialise_decay_for_one_owner_leaves_others_alone(
        self, ports: MemoryPorts, owner: Owner, other_user: Owner
    ) -> None:
        theirs = stored(other_user, importance=0.99, heat=Heat(0.5, 0, T0))
        await insert(ports.store, stored(owner, importance=0.99, heat=Heat(0.5, 0, T0)), theirs)
        assert await ports.maintenance.materialise_decay(owner, T0 + DAY, BASE_RATE) == 1
        got = await ports.store.get(other_user, theirs.id)
        assert got is not None and got.importance == 0.99

    async def test_materialise_decay_for_everyone_reaches_this_owner(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        row = stored(owner, importance=0.99, heat=Heat(0.5, 0, T0))
        await insert(ports.store, row)
        assert await ports.maintenance.materialise_decay(None, T0 + 3 * DAY, BASE_RATE) >= 1
        got = await ports.store.get(owner, row.id)
        assert got is not None
        assert got.importance == pytest.approx(exact_importance(row, T0 + 3 * DAY), abs=1e-9)

    async def test_cleanup_deletes_at_or_below_min_importance_but_keeps_pinned_and_above(
        self, ports: MemoryPorts, owner: Owner, other_user: Owner
    ) -> None:
        at_min, below, pinned, above, theirs = await cleanup_rows(ports, owner, other_user)
        assert await ports.maintenance.cleanup(owner, NO_GRACE, T0, BASE_RATE) == 2
        assert await ports.store.get(owner, at_min.id) is None
        assert await ports.store.get(owner, below.id) is None
        assert await ports.store.get(owner, pinned.id) is not None
        assert await ports.store.get(owner, above.id) is not None
        assert await ports.store.get(other_user, theirs.id) is not None
        # Everyone: theirs too.
        assert await ports.maintenance.cleanup(None, NO_GRACE, T0, BASE_RATE) >= 1
        assert await ports.store.get(other_user, theirs.id) is None

    async def test_a_tenant_reach_covers_every_user_of_that_tenant_and_no_other_tenant(
        self, ports: MemoryPorts, owner: Owner, other_user: Owner
    ) -> None:
        stranger = Owner(f"{owner.tenant}-other", owner.user_id)
        faded = Heat(0.05, 0, T0)
        rows = [stored(o, memory_type=MemoryType.CONTEXT, heat=faded, importance=0.99)
                for o in (owner, other_user, stranger)]
        await insert(ports.store, *rows)
        reach = TenantReach(owner.tenant)
        assert (await ports.maintenance.stats(reach, T0, BASE_RATE)).total == 2
        assert await ports.maintenance.materialise_decay(reach, T0, BASE_RATE) == 2
        still = await ports.store.get(stranger, rows[2].id)
        assert still is not None and still.importance == 0.99
        assert await ports.maintenance.cleanup(reach, NO_GRACE, T0, BASE_RATE) == 2
        assert await ports.store.get(owner, rows[0].id) is None
        assert await ports.store.get(other_user, rows[1].id) is None
        assert await ports.store.get(stranger, rows[2].id) is not None

    async def test_faded_owners_and_an_owner_delete_match_cleanup_and_return_the_ids(
        self, ports: MemoryPorts, owner: Owner, other_user: Owner
    ) -> None:
        assert ports.faded is not None
        at_min, below, pinned, above, theirs = await cleanup_rows(ports, owner, other_user)
        assert await ports.faded.owners(owner, NO_GRACE, T0, BASE_RATE) == [owner]
        everyone = await ports.faded.owners(None, NO_GRACE, T0, BASE_RATE)
        assert {owner, other_user} <= set(everyone) and len(everyone) == len(set(everyone))
        deleted = await ports.faded.delete(owner, NO_GRACE, T0, BASE_RATE)
        assert sorted(deleted) == sorted([at_min.id, below.id])
        assert await ports.store.get(owner, pinned.id) is not None
        assert await ports.store.get(owner, above.id) is not None
        assert await ports.store.get(other_user, theirs.id) is not None
        assert await ports.faded.owners(owner, NO_GRACE, T0, BASE_RATE) == []
        assert await ports.faded.delete(owner, NO_GRACE, T0, BASE_RATE) == []

    async def test_consolidation_deletes_the_owners_sources_only_and_returns_their_ids(
        self, ports: MemoryPorts, owner: Owner, other_user: Owner
    ) -> None:
        assert ports.consolidation is not None
        first, second, kept = stored(owner), stored(owner), stored(owner)
        theirs = stored(other_user)
        await insert(ports.store, first, second, kept, theirs)
        deleted = await ports.consolidation.delete_sources(
            owner, [first.id, second.id, theirs.id, uuid4()])
        assert sorted(deleted) == sorted([first.id, second.id])
        assert await ports.store.get(owner, first.id) is None
        assert await ports.store.get(owner, kept.id) is not None
        assert await ports.store.get(other_user, theirs.id) is not None
        assert await ports.consolidation.delete_sources(owner, [first.id]) == []

    async def test_cleanup_judges_importance_at_now_not_the_stored_column(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        # Stored columns that are stale both ways: the judgement uses the heat at `now`.
        faded = stored(owner, memory_type=MemoryType.CONTEXT, importance=0.99,
                       heat=Heat(0.5, 0, T0 - 100 * DAY))
        lively = stored(owner, memory_type=MemoryType.CONTEXT, importance=0.05,
                        heat=Heat(0.5, 0, T0))
        fact = stored(owner, memory_type=MemoryType.FACT, importance=0.05,
                      heat=Heat(0.5, 0, T0 - 1000 * DAY))  # a fact's floor is 0.30
        await insert(ports.store, faded, lively, fact)
        assert exact_importance(faded, T0) <= 0.1 < exact_importance(lively, T0)
        assert await ports.maintenance.cleanup(owner, NO_GRACE, T0, BASE_RATE) == 1
        assert await ports.store.get(owner, faded.id) is None
        kept = await ports.store.get(owner, lively.id)
        assert kept is not None and kept.importance == pytest.approx(0.05)  # not rewritten
        assert await ports.store.get(owner, fact.id) is not None

    async def test_cleanup_keeps_a_memory_within_the_grace_period_after_it_arrived(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        faded = Heat(0.05, 0, T0 - 100 * DAY)  # at the floor whenever it arrived
        rows = [
            replace(stored(owner, memory_type=MemoryType.CONTEXT, heat=faded,
                           created_at=LONG_AGO), arrived_at=T0 - days * DAY)
            for days in (6, 7, 8)
        ]
        await insert(ports.store, *rows)
        assert await ports.maintenance.cleanup(owner, WEEK_OF_GRACE, T0, BASE_RATE) == 2
        assert await ports.store.get(owner, rows[0].id) is not None  # 6 days: in its grace
        assert await ports.store.get(owner, rows[2].id) is None
        assert ports.faded is not None
        assert await ports.faded.owners(owner, WEEK_OF_GRACE, T0, BASE_RATE) == []
        assert await ports.faded.delete(owner, NO_GRACE, T0, BASE_RATE) == [rows[0].id]

    async def test_an_edit_leaves_when_a_memory_arrived_and_whether_it_was_imported(
        self, ports: MemoryPorts, owner: Owner
    ) -> None:
        row = replace(stored(owner, memory_type=MemoryType.CONTEXT,
                             heat=Heat(0.05, 0, T0 - 100 * DAY)),
                      arrived_at=T0 - 30 * DAY, imported=True)
        await insert(ports.store, row)
        assert await ports.store.update(replace(row, arrived_at=T0, imported=False))
        # Imported, no fact, no name: history with nothing in it goes like any faded memory.
        assert await ports.maintenance.cleanup(owner, WEEK_OF_GRACE, T0, BASE_RATE) == 1

    async def test_missing_embeddings_lists_rows_without_one_oldest_first(
        self, ports: MemoryPorts, owner: Owner, dimension: int
    ) -> None:
        newer = stored(owner, created_at=LONG_AGO + DAY)
        older = stored(owner, created_at=LONG_AGO)
        done = stored(owner, created_at=LONG_AGO, embedding=axis(dimension, 0))
        await insert(ports.store, newer, done, older)
        missing = await ports.maintenance.missing_embeddings(10_000)
        mine = [m.id for m in missing if m.owner == owner]
        assert mine == [older.id, newer.id]
        assert [m.created_at for m in missing] == sorted(m.created_at for m in missing)
        assert len(await ports.maintenance.missing_embeddings(1)) == 1

    async def test_set_embeddings_attaches_vectors_for_the_right_owner_only(
        self, ports: MemoryPorts, owner: Owner, other_user: Owner, dimension: int
    ) -> None:
        first, second = stored(owner, created_at=LONG_AGO), stored(owner, created_at=LONG_AGO)
        await insert(ports.store, first, second)
        items = [(owner, first.id, axis(dimension, 3)), (other_user, second.id, axis(dimension, 4))]
        assert await ports.maintenance.set_embeddings(items, "model-z") == 1
        got = await ports.store.get(owner, first.id)
        assert got is not None and got.embedding_model == "model-z"
        assert got.embedding is not None and got.embedding[3] == pytest.approx(1.0, abs=1e-6)
        still_missing = {m.id for m in await ports.maintenance.missing_embeddings(10_000)}
        assert first.id not in still_missing
        assert second.id in still_missing
        found = await ports.search.dense_candidates(owner, axis(dimension, 3), 5)
        assert [c.id for c in found] == [first.id]
