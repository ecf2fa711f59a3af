"""The sleep cycle's pure rules: grouping near-duplicates, watermarks, reports."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4

from hypothesis import given, strategies as st

from memlane.domain.memories import (
    MERGE_COST,
    Changed,
    NearPair,
    SleepReport,
    fragment_groups,
    merges_within,
    next_batch_size,
    watermarks,
)
from memlane.domain.model import Owner

ANA, BEN = Owner("t", "ana"), Owner("t", "ben")
T0 = datetime(2030, 1, 1, tzinfo=UTC)


def ids(n: int) -> list[UUID]:
    return sorted((uuid4() for _ in range(n)), key=str)


def test_what_is_near_one_member_joins_its_group() -> None:
    a, b, c, d = ids(4)
    pairs = [NearPair(ANA, a, b), NearPair(ANA, c, b), NearPair(ANA, b, a)]
    groups = fragment_groups(pairs, dict.fromkeys((a, b, c, d), True))
    assert groups == {ANA: [(a, b, c)]}


def test_owners_never_share_a_group_and_a_memory_kept_apart_never_joins() -> None:
    a, b, c, d = ids(4)
    pairs = [NearPair(ANA, a, b), NearPair(BEN, c, d), NearPair(ANA, b, c)]
    groups = fragment_groups(pairs, {a: True, b: True, c: False, d: True})
    assert groups == {ANA: [(a, b)]}  # c is kept apart: ben's pair has one member left


def test_a_group_bigger_than_the_limit_is_cut_to_it() -> None:
    members = ids(5)
    pairs = [NearPair(ANA, members[0], m) for m in members[1:]]
    assert fragment_groups(pairs, dict.fromkeys(members, True), limit=3) == {
        ANA: [tuple(members[:3])]}


@given(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=20))
def test_groups_are_disjoint_and_each_pair_lies_within_one(edges: list[tuple[int, int]]) -> None:
    nodes = ids(8)
    pairs = [NearPair(ANA, nodes[i], nodes[j]) for i, j in edges if i != j]
    groups = fragment_groups(pairs, dict.fromkeys(nodes, True)).get(ANA, [])
    seen = [m for g in groups for m in g]
    assert len(seen) == len(set(seen)) and all(len(g) >= 2 for g in groups)
    for pair in pairs:
        assert any(pair.first in g and pair.second in g for g in groups)


def test_an_owners_watermark_is_its_last_memory_of_the_batch() -> None:
    a, b, c = ids(3)
    later = T0 + timedelta(seconds=1)
    batch = [Changed(ANA, b, later), Changed(ANA, a, later), Changed(BEN, c, T0)]
    assert watermarks(batch) == {ANA: (later, b), BEN: (T0, c)}


def test_reports_add_up_field_by_field() -> None:
    total = SleepReport(scanned=3, merged=1, sources=2).plus(
        SleepReport(woven=4, pruned=5, clusters=6, left=7))
    assert total.as_dict() == {"scanned": 3, "merged": 1, "sources": 2, "woven": 4,
                               "pruned": 5, "skipped": 0, "clusters": 6, "left": 7}


def test_a_merge_counts_against_a_runs_budget_as_many_reads() -> None:
    assert SleepReport(scanned=10).spent == 10
    assert SleepReport(scanned=10, merged=2, woven=7).spent == 10 + 2 * MERGE_COST


def test_batches_are_sized_to_stay_within_a_runs_budget() -> None:
    assert next_batch_size(1000, None, SleepReport(scanned=10**6, merged=10**6)) == 1000
    first = next_batch_size(1000, 25_000, SleepReport())
    assert first * (1 + MERGE_COST / 2) <= 25_000  # even if every two memories merged
    sparse = SleepReport(scanned=first)  # nothing merged: full batches
    assert next_batch_size(1000, 25_000, sparse) == 1000
    dense = SleepReport(scanned=200, merged=60)  # 12,200 spent, 61 per memory read
    assert next_batch_size(1000, 25_000, dense) == int(12_800 / 61)
    assert next_batch_size(1000, 25_000, SleepReport(scanned=25_000)) == 0
    assert next_batch_size(1000, 3, SleepReport()) == 1  # never stalls below one


def test_merges_beyond_the_allowed_wait_from_the_first_memory_they_involve() -> None:
    ids = [uuid4() for _ in range(6)]
    batch = [Changed(ANA, i, T0) for i in ids[:4]]
    outside = uuid4()  # a neighbour that is not in the batch
    groups = {ANA: [(ids[2], outside), (ids[0], ids[1])]}
    taken, done = merges_within(batch, groups, allowed=1)
    assert taken == [(ANA, (ids[0], ids[1]))] and done == 2  # ids[2] is read again
    taken, done = merges_within(batch, groups, allowed=5)
    assert len(taken) == 2 and done == 4
    taken, done = merges_within(batch, groups, allowed=-3)  # budget spent: one, to get on
    assert len(taken) == 1 and done == 2
    assert merges_within(batch, {}, allowed=0) == ([], 4)
