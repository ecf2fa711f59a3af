"""The audit chain rule: links, batch independence, tombstones, and what tampering breaks."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from uuid import UUID

import pytest
from hypothesis import given, strategies as st

from memlane.domain.model import Owner
from memlane.domain.security.audit import (
    CLI,
    GENESIS,
    OWNER_SUBJECT,
    SYSTEM_DECAY,
    AuditEntry,
    AuditEvent,
    ChainHead,
    EventKind,
    SubjectKind,
    chain,
    header_bytes,
    is_actor,
    key_actor,
    tombstone,
)
from memlane.domain.security.audit_chain import verify

OWNER = Owner("acme", "ada")
BODY_KINDS = [k for k in EventKind if k not in (EventKind.ERASED, EventKind.ERASURE)]

entries = st.builds(
    AuditEntry,
    id=st.uuids(),
    subject_kind=st.sampled_from([SubjectKind.MEMORY, SubjectKind.EDGE, SubjectKind.FACT]),
    subject_id=st.uuids(),
    kind=st.sampled_from(BODY_KINDS),
    actor=st.sampled_from([CLI, SYSTEM_DECAY, key_actor("k1")]),
    at=st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1),
                    timezones=st.just(UTC)),
    payload=st.one_of(st.none(), st.binary(max_size=40)),
    related_id=st.one_of(st.none(), st.uuids()),
)
chains = st.lists(entries, min_size=1, max_size=12)


def erasure(at: datetime) -> AuditEntry:
    return AuditEntry(UUID(int=7), SubjectKind.OWNER, OWNER_SUBJECT, EventKind.ERASURE, CLI, at)


def chained_in(batches: list[list[AuditEntry]]) -> list[AuditEvent]:
    events: list[AuditEvent] = []
    for batch in batches:
        head = ChainHead(events[-1].seq, events[-1].hash) if events else None
        events += chain(OWNER, head, batch)
    return events


@given(chains)
def test_each_event_links_to_the_one_before_and_the_chain_verifies(
    items: list[AuditEntry],
) -> None:
    events = chain(OWNER, None, items)
    assert [e.seq for e in events] == list(range(1, len(items) + 1))
    assert [e.prev_hash for e in events] == [GENESIS] + [e.hash for e in events[:-1]]
    report = verify(events)
    assert report.intact and report.events == len(items) and report.owners == 1


@given(chains, st.data())
def test_how_the_entries_were_batched_does_not_change_the_chain(
    items: list[AuditEntry], data: st.DataObject
) -> None:
    cuts = sorted(data.draw(st.sets(st.integers(1, len(items)), max_size=4)))
    batches = [items[a:b] for a, b in zip([0, *cuts], [*cuts, len(items)], strict=True)]
    assert chained_in([b for b in batches if b]) == chain(OWNER, None, items)


@given(chains, st.data())
def test_tombstones_followed_by_an_erasure_keep_the_chain_verifiable(
    items: list[AuditEntry], data: st.DataObject
) -> None:
    events = chain(OWNER, None, items)
    events += chain(OWNER, ChainHead(events[-1].seq, events[-1].hash), [erasure(items[-1].at)])
    erased = [tombstone(e) for e in events]
    assert all(e.erased for e in erased[:-1]) and erased[-1] == events[-1]
    assert [e.hash for e in erased] == [e.hash for e in events]
    report = verify(erased)
    assert report.intact and report.tombstones == len(items)
    # Without the erasure that must follow them, tombstones are a break.
    assert not verify(erased[:-1]).intact


TAMPERING = {
    "payload": lambda e: replace(
        e, entry=replace(e.entry, payload=(e.entry.payload or b"") + b"!")),
    "kind": lambda e: replace(e, entry=replace(
        e.entry, kind=EventKind.DELETED if e.entry.kind != EventKind.DELETED
        else EventKind.CREATED)),
    "actor": lambda e: replace(e, entry=replace(e.entry, actor="cli-x")),
    "time": lambda e: replace(e, entry=replace(e.entry, at=e.entry.at + timedelta(seconds=1))),
    "subject": lambda e: replace(e, entry=replace(e.entry, subject_id=UUID(int=1))),
    "hash": lambda e: replace(e, hash=bytes(32)),
    "owner": lambda e: replace(e, owner=Owner("acme", "eve")),
}


@given(chains, st.data(), st.sampled_from(sorted(TAMPERING)))
def test_changing_any_part_of_any_event_is_detected(
    items: list[AuditEntry], data: st.DataObject, part: str
) -> None:
    events = chain(OWNER, None, items)
    index = data.draw(st.integers(0, len(events) - 1))
    tampered = list(events)
    tampered[index] = TAMPERING[part](events[index])
    report = verify(tampered)
    assert not report.intact
    assert report.breaks[0].event_id == tampered[index].entry.id


@given(st.lists(entries, min_size=3, max_size=10), st.data())
def test_a_removed_event_breaks_the_chain_after_it(
    items: list[AuditEntry], data: st.DataObject
) -> None:
    events = chain(OWNER, None, items)
    index = data.draw(st.integers(0, len(events) - 2))
    report = verify(events[:index] + events[index + 1:])
    assert [b.event_id for b in report.breaks][:1] == [events[index + 1].entry.id]


@given(entries, st.integers(-12, 12))
def test_the_same_instant_in_any_time_zone_hashes_the_same(
    item: AuditEntry, hours: int
) -> None:
    zone = timezone(timedelta(hours=hours))
    moved = replace(item, at=item.at.astimezone(zone))
    assert header_bytes(OWNER, 1, moved) == header_bytes(OWNER, 1, item)


def test_only_known_actors_are_chained() -> None:
    assert is_actor(key_actor(UUID(int=3))) and is_actor(SYSTEM_DECAY) and is_actor("api")
    assert not is_actor("key:") and not is_actor("root")
    with pytest.raises(ValueError):
        chain(OWNER, None, [replace(erasure(datetime(2030, 1, 1, tzinfo=UTC)), actor="root")])
