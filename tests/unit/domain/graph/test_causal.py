"""Causal cues between adjacent segments, and temporal edges along the owner's timeline."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from uuid import UUID

import pytest
from hypothesis import given, strategies as st

from memlane.domain.graph.causal import CAUSAL_CUES, follows_causally
from memlane.domain.graph.edges import EdgeKind
from memlane.domain.graph.temporal import (
    TEMPORAL_WINDOW,
    Moment,
    temporal_edge_to,
    temporal_edges,
    temporal_weight,
)

T0 = datetime(2030, 1, 1, tzinfo=UTC)
cues = st.sampled_from(CAUSAL_CUES)
casings = st.sampled_from([str.lower, str.upper, str.capitalize, str.title])


@given(cue=cues, casing=casings, prefix=st.sampled_from(["", "user: ", "assistant (Ada): "]))
def test_every_cue_opening_a_segment_counts_whatever_its_case_or_role_prefix(
    cue: str, casing: Callable[[str], str], prefix: str
) -> None:
    assert follows_causally(f"{prefix}{casing(cue)} it went on from there.")


@given(cue=cues)
def test_a_cue_opening_a_later_sentence_counts(cue: str) -> None:
    assert follows_causally(f"It rained all week. {cue.capitalize()} we stayed in.")


@given(cue=cues)
def test_a_cue_that_only_starts_a_longer_word_does_not_count(cue: str) -> None:
    assert not follows_causally(f"{cue}xq is a word I made up.")


@pytest.mark.parametrize("text", [
    "I stayed home because it rained.",
    "Sofas are comfortable.",
    "Weiler ist ein Ortsname.",
    "The meeting is on Thursday.",
])
def test_a_segment_without_an_opening_cue_is_not_causal(text: str) -> None:
    assert not follows_causally(text)


def test_the_cue_list_is_data_in_english_and_german() -> None:
    assert {"because", "therefore", "that's why", "weil", "deshalb", "daher", "darum"} <= set(
        CAUSAL_CUES
    )
    assert all(cue == cue.lower().strip() for cue in CAUSAL_CUES)


gaps = st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=2))


@given(gap=gaps, other=gaps)
def test_temporal_weight_is_within_zero_and_one_and_falls_with_the_gap(
    gap: timedelta, other: timedelta
) -> None:
    near, far = sorted((gap, other))
    assert 0.0 <= temporal_weight(far) <= temporal_weight(near) <= 1.0
    assert temporal_weight(timedelta(0)) == 1.0
    assert (temporal_weight(gap) == 0.0) == (gap >= TEMPORAL_WINDOW)


def test_temporal_weight_refuses_a_negative_gap_or_an_empty_window() -> None:
    with pytest.raises(ValueError, match="gap"):
        temporal_weight(timedelta(minutes=-1))
    with pytest.raises(ValueError, match="window"):
        temporal_weight(timedelta(0), timedelta(0))


moments = st.lists(
    st.builds(
        Moment,
        id=st.integers(1, 10**6).map(lambda i: UUID(int=i)),
        created_at=st.integers(0, 6 * 60).map(lambda minutes: T0 + timedelta(minutes=minutes)),
        conversation_id=st.sampled_from([None, "a", "b"]),
    ),
    max_size=12,
    unique_by=lambda m: m.id,
)


@given(timeline=moments)
def test_temporal_edges_join_only_timeline_neighbours_forward_in_time(
    timeline: list[Moment],
) -> None:
    edges = temporal_edges(timeline, T0)
    by_id = {m.id: m for m in timeline}
    order = sorted(timeline, key=lambda m: (m.created_at, m.id))
    place = {m.id: i for i, m in enumerate(order)}
    for edge in edges:
        earlier, later = by_id[edge.source], by_id[edge.target]
        assert edge.kind is EdgeKind.TEMPORAL
        assert place[later.id] == place[earlier.id] + 1
        assert edge.weight == temporal_weight(later.created_at - earlier.created_at) > 0.0
        assert earlier.conversation_id is None or earlier.conversation_id != later.conversation_id
    assert len({e.source for e in edges}) == len(edges) == len({e.target for e in edges})


@given(timeline=moments, data=st.data())
def test_temporal_edges_do_not_depend_on_input_order(
    timeline: list[Moment], data: st.DataObject
) -> None:
    shuffled = data.draw(st.permutations(timeline))
    assert temporal_edges(shuffled, T0) == temporal_edges(timeline, T0)


def moment(i: int, minutes: float, conversation: str | None = None) -> Moment:
    return Moment(UUID(int=i), T0 + timedelta(minutes=minutes), conversation)


def test_notes_and_chats_close_in_time_are_linked_but_chained_segments_are_not() -> None:
    notes = [moment(1, 0), moment(2, 30), moment(3, 40, "a"), moment(4, 45, "a"),
             moment(5, 50, "b"), moment(6, 400)]
    edges = temporal_edges(notes, T0)
    assert [(e.source.int, e.target.int, round(e.weight, 4)) for e in edges] == [
        (1, 2, 0.75), (2, 3, round(1 - 10 / 120, 4)), (4, 5, round(1 - 5 / 120, 4)),
    ]


def test_the_write_time_edge_comes_from_the_memory_said_just_before() -> None:
    previous, new = moment(1, 0), moment(2, 60)
    edge = temporal_edge_to(previous, new, T0)
    assert edge is not None and (edge.source, edge.target, edge.weight) == (
        previous.id, new.id, 0.5,
    )
    assert temporal_edge_to(None, new, T0) is None
    assert temporal_edge_to(new, previous, T0) is None
    assert temporal_edge_to(moment(1, 0, "a"), moment(2, 1, "a"), T0) is None
    assert temporal_edge_to(previous, moment(2, 121), T0) is None


def test_a_memory_listed_with_two_different_times_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        temporal_edges([moment(1, 0), moment(1, 5)], T0)
