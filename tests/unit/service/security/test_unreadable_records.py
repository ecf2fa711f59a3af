"""Damaged facts and attributes are left out by id and counted by kind, never fail a read."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from uuid import UUID, uuid4

import pytest

from memlane.api.metrics import ApiMetrics
from memlane.domain.facts.model import ExtractedFact, FactType, TimeSpan, fact_from_extracted
from memlane.domain.facts.records import FactUnreadable
from memlane.domain.model import Heat, Memory, MemoryFilter, MemoryType, Owner
from memlane.service.facts.sealing import FactSealer
from memlane.service.security.attributes import AttributeSealer
from memlane.service.security.sealing import Sealer
from tests.fakes.encryption import FakeEncryption
from tests.fakes.keywords import FakeKeywords

NOW = datetime(2026, 5, 1, tzinfo=UTC)
OWNER = Owner("t", "alice")


def test_a_damaged_fact_is_none_when_listed_and_fact_unreadable_by_id() -> None:
    heard: list[UUID] = []
    sealer = FactSealer(FakeEncryption(), heard.append)
    fact = fact_from_extracted(ExtractedFact(
        subject="user", relation="likes", object="green tea", fact_type=FactType.PREFERENCE,
        time_span=TimeSpan.CURRENT, confidence=0.9), fact_id=uuid4(), now=NOW)
    good = sealer.seal(OWNER, fact)
    bad = replace(good, object=good.object[:-1] + bytes([good.object[-1] ^ 1]) + b"\xff")

    assert sealer.readable_all([good, bad]) == [fact]
    with pytest.raises(FactUnreadable):
        sealer.opened(bad)
    assert heard == [fact.id, fact.id]


def test_damaged_attributes_make_the_memory_unreadable_and_are_named_by_verify() -> None:
    sealer = Sealer(FakeEncryption(), FakeKeywords(), 0.1)
    memory = Memory(id=uuid4(), owner=OWNER, memory_type=MemoryType.FACT, content="Boat at nine",
                    summary="Boat at nine", importance=0.5, heat=Heat(0.5, 0, NOW),
                    created_at=NOW, updated_at=NOW,
                    tags=("boat",), metadata={"k": "v"}, conversation_id="c1")
    stored = sealer.seal(memory, None, NOW)
    damaged = replace(stored, attributes=b"garbage")

    assert sealer.open(stored, NOW).metadata == {"k": "v"}
    assert sealer.readable(damaged, NOW) is None
    assert sealer.unreadable_fields(damaged) == ("attributes",)


def test_filters_compare_tokens_which_differ_by_tenant_and_by_field() -> None:
    attributes = AttributeSealer(FakeEncryption())
    mine = attributes.index_filter("t1", MemoryFilter(tag="x", conversation_id="x"))
    theirs = attributes.index_filter("t2", MemoryFilter(tag="x"))

    assert mine.tag not in ("x", mine.conversation_id, theirs.tag)


def test_the_metric_counts_unreadable_records_by_kind() -> None:
    metrics = ApiMetrics()
    metrics.unreadable(uuid4(), "fact")
    metrics.unreadable(uuid4())

    text = metrics.exposition().decode()
    assert 'memlane_records_unreadable_total{kind="fact"} 1.0' in text
    assert "memlane_memories_unreadable_total 1.0" in text
