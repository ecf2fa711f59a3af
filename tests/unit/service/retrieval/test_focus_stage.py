"""The focus stage on a fake port: closeness raises matches, resume brings the last focus."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

import pytest

from memlane.adapters.encryption.noop import NoopEncryptionAdapter
from memlane.domain.model import Owner, SearchCandidate, Vector
from memlane.domain.policy import DetailTuning
from memlane.domain.retrieval import FocusQuery, FocusView
from memlane.ports.memories import FocusPort
from memlane.service.retrieval import Focus, FocusRecording
from memlane.service.security import AttributeSealer
from tests.fakes.candidate_search import FakeCandidateSearch
from tests.fakes.memory_table import FakeMemoryTable
from tests.unit.service.retrieval.stage_builders import NOW, candidate, context, hit, request


class FakeFocus(FocusPort):
    def __init__(self, view: FocusView) -> None:
        self.view = view
        self.asked: list[tuple[str, FocusQuery]] = []
        self.touched: list[tuple[str, list[UUID]]] = []

    async def touch(
        self, owner: Owner, conversation: str, memory_ids: Sequence[UUID], now: datetime
    ) -> None:
        self.touched.append((conversation, list(memory_ids)))

    async def closeness(
        self, owner: Owner, conversation: str, candidates: Sequence[UUID],
        vector: Vector | None, query: FocusQuery,
    ) -> FocusView:
        self.asked.append((conversation, query))
        return self.view


class ById(FakeCandidateSearch):
    def __init__(self, hits: Sequence[SearchCandidate]) -> None:
        super().__init__(FakeMemoryTable())
        self._hits = {h.id: h for h in hits}

    async def candidates_by_id(
        self, owner: Owner, memory_ids: Sequence[UUID], embedding: Vector | None
    ) -> list[SearchCandidate]:
        return [self._hits[i] for i in memory_ids if i in self._hits]


ATTRIBUTES = AttributeSealer(NoopEncryptionAdapter())
TUNING = DetailTuning(focus_weight=0.2, resume_share=0.5)


def stage(port: FocusPort, hits: Sequence[SearchCandidate] = ()) -> Focus:
    return Focus(port, ById(hits), ATTRIBUTES, TUNING, 0.35)


async def test_closeness_to_the_focus_raises_a_match_and_reranks() -> None:
    near, far = candidate(0.9), candidate(1.0)
    port = FakeFocus(FocusView((near.id,), hops={near.id: 0}))
    r = request(conversation_id="chat-1")
    r.candidates = [far, near]
    await stage(port)(r)
    assert [c.id for c in r.candidates] == [near.id, far.id]
    assert near.match == pytest.approx(0.9 * 1.2) and far.match == 1.0
    assert port.asked == [("chat-1", FocusQuery(5, 2, 20, 0.35))]


async def test_without_a_conversation_nothing_is_read() -> None:
    port = FakeFocus(FocusView())
    r = request()
    r.candidates = [candidate(1.0)]
    await stage(port)(r)
    assert port.asked == []


async def test_a_resumed_focus_joins_the_candidates_below_the_best() -> None:
    found = candidate(1.0)
    earlier = hit(0.1)
    port = FakeFocus(FocusView((earlier.id,), resumed=True, hops={earlier.id: 0}))
    r = request(conversation_id="chat-2")
    r.candidates = [found]
    await stage(port, [earlier])(r)
    assert [c.id for c in r.candidates] == [found.id, earlier.id]
    assert r.candidates[1].match == pytest.approx(1.0 * 0.5 * 1.2)
    assert r.resumed == {earlier.id}


async def test_the_contexts_handed_out_are_touched_in_the_conversation() -> None:
    port = FakeFocus(FocusView())
    r = request(conversation_id="chat-3")
    await FocusRecording(port, ATTRIBUTES, lambda: NOW)(r)  # no context: nothing touched
    r.contexts = [context()]
    await FocusRecording(port, ATTRIBUTES, lambda: NOW)(r)
    assert port.touched == [("chat-3", [r.contexts[0].id])]
