"""Clusters' pure rules: grouping pairs by name, matching groups to clusters, the summary."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID, uuid4

from hypothesis import given, strategies as st

from memlane.domain.graph.clusters import (
    Cluster,
    Group,
    MemberText,
    Pair,
    cut,
    groups_of,
    reconcile,
    summary_of,
)

ANCHOR, OTHER = UUID(int=1), UUID(int=2)
T0 = datetime(2030, 1, 1, tzinfo=UTC)


def ids(n: int) -> list[UUID]:
    return [UUID(int=100 + i) for i in range(n)]


def test_pairs_of_one_name_join_into_a_group_of_at_least_three() -> None:
    a, b, c, d, e = ids(5)
    groups = groups_of([Pair(ANCHOR, a, b), Pair(ANCHOR, b, c), Pair(ANCHOR, d, e)])
    assert [g.members for g in groups] == [(a, b, c)]  # d-e is only a pair
    assert groups[0].anchor == ANCHOR and groups[0].central[0] == b  # linked to both


def test_a_group_bigger_than_the_most_keeps_its_most_linked_members() -> None:
    hub, *spokes = ids(6)
    groups = groups_of([Pair(ANCHOR, hub, s) for s in spokes]
                       + [Pair(ANCHOR, spokes[0], spokes[1])], most=3)
    assert [set(g.members) for g in groups] == [{hub, spokes[0], spokes[1]}]


def test_the_same_members_reached_through_two_names_are_one_group() -> None:
    a, b, c = ids(3)
    pairs = [Pair(anchor, x, y) for anchor in (OTHER, ANCHOR) for x, y in ((a, b), (b, c))]
    groups = groups_of(pairs)
    assert len(groups) == 1 and groups[0].anchor == ANCHOR  # the first by id


def test_an_unchanged_group_changes_nothing_and_a_stale_one_is_refreshed() -> None:
    group = Group(ANCHOR, tuple(ids(3)))
    kept = Cluster(uuid4(), ANCHOR, group.members)
    assert reconcile([kept], [group]).empty
    stale = Cluster(kept.id, ANCHOR, group.members, stale=True)
    assert reconcile([stale], [group]).refreshed == [(kept.id, group)]


def test_a_group_overlapping_a_cluster_refreshes_it_and_the_rest_is_made_or_dropped() -> None:
    a, b, c, d, e, f, g = ids(7)
    grown = Group(ANCHOR, (a, b, c, d))
    new = Group(OTHER, (e, f, g))
    old = Cluster(uuid4(), ANCHOR, (a, b, c))  # 3 of 4 shared: the same cluster, grown
    gone = Cluster(uuid4(), OTHER, (UUID(int=9), UUID(int=10), UUID(int=11)))
    plan = reconcile([old, gone], [grown, new])
    assert plan.refreshed == [(old.id, grown)]
    assert plan.made == [new] and plan.dropped == [gone.id]


@given(st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12), st.booleans()), max_size=40))
def test_grouping_then_reconciling_with_its_own_result_changes_nothing(
    edges: list[tuple[int, int, bool]]
) -> None:
    pairs = [Pair(ANCHOR if flag else OTHER, UUID(int=x), UUID(int=y))
             for x, y, flag in edges if x != y]
    groups = groups_of(pairs)
    stored = [Cluster(uuid4(), g.anchor, g.members) for g in groups]
    assert reconcile(stored, groups_of(pairs)).empty  # idempotent: a second cycle does nothing
    for group in groups:
        assert 3 <= len(group.members) <= 12 and list(group.members) == sorted(
            group.members, key=str)


def test_the_summary_is_extractive_within_its_tiers() -> None:
    a, b, c = ids(3)
    texts = [MemberText(a, "Caroline went to a pottery class.", T0 + timedelta(days=2)),
             MemberText(b, "Caroline painted a sunrise by the lake.", T0),
             MemberText(c, "Caroline ran a charity race for mental health.", T0 + timedelta(1))]
    text = summary_of(Group(ANCHOR, (a, b, c), (c, a, b)), texts, (120, 1000, 5000))
    assert text.abstract == "Caroline ran a charity race for mental health."
    assert text.overview.split(" · ") == [t.abstract for t in (texts[2], texts[0], texts[1])]
    assert text.content.splitlines() == [f"- {t.abstract}" for t in (texts[1], texts[2],
                                                                     texts[0])]
    small = summary_of(Group(ANCHOR, (a, b, c)), texts, (20, 50, 60))
    assert len(small.abstract) <= 20 and len(small.overview) <= 50 and len(small.content) <= 60


def test_no_readable_member_is_no_summary() -> None:
    assert summary_of(Group(ANCHOR, tuple(ids(3))), [], (120, 1000, 5000)).content == ""


@given(st.text(max_size=300), st.integers(2, 200))
def test_cut_never_exceeds_its_limit(text: str, limit: int) -> None:
    assert len(cut(text, limit)) <= limit


def test_a_cluster_of_a_name_not_grouped_again_stays_whatever_the_groups() -> None:
    a, b, c, d, e, f = ids(6)
    untouched = Cluster(uuid4(), OTHER, (d, e, f))
    regrouped = Cluster(uuid4(), ANCHOR, (a, b, c))
    plan = reconcile([untouched, regrouped], [], frozenset({ANCHOR}))
    assert plan.dropped == [regrouped.id] and not plan.made and not plan.refreshed
