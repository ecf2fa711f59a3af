"""The cluster recall stage on a fake port: the nearest summaries bring their best members."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from uuid import UUID, uuid4

import pytest

from memlane.domain.graph import Cluster, Regrouping
from memlane.domain.model import Owner, SearchCandidate, Vector
from memlane.domain.policy import GraphTuning, RecallTuning
from memlane.domain.reach import Reach
from memlane.ports.clusters import ClusterHit, ClusterPort, ClusterWrite
from memlane.service.retrieval import ClusterRecall
from tests.fakes.embedder import FakeEmbedder
from tests.unit.service.retrieval.stage_builders import candidate, hit, request
from tests.unit.service.retrieval.test_focus_stage import ById

EMBEDDER = FakeEmbedder()


class FakeClusters(ClusterPort):
    """Answers `nearest` with fixed hits; the sleep side is not used here."""

    def __init__(self, hits: Sequence[ClusterHit]) -> None:
        self.hits = list(hits)
        self.asked: list[tuple[str, int]] = []

    async def nearest(
        self, owner: Owner, vector: Vector, model: str, limit: int
    ) -> list[ClusterHit]:
        self.asked.append((model, limit))
        return self.hits[:limit]

    async def owners(self, reach: Reach, now: datetime, limit: int) -> list[Owner]:
        raise NotImplementedError

    async def pairs(self, owners: Sequence[Owner], threshold: float, nearest: int,
                    per_anchor: int, least: int, whole: int) -> dict[Owner, Regrouping]:
        raise NotImplementedError

    async def clusters(self, owners: Sequence[Owner]) -> dict[Owner, list[Cluster]]:
        raise NotImplementedError

    async def save(self, owner: Owner, writes: Sequence[ClusterWrite],
                   dropped: Sequence[UUID], now: datetime) -> None:
        raise NotImplementedError

    async def mark(self, marks: Mapping[Owner, datetime]) -> None:
        raise NotImplementedError


def stage(port: ClusterPort, rows: Sequence[SearchCandidate] = (), **tuning: object
          ) -> ClusterRecall:
    return ClusterRecall(port, ById(rows), EMBEDDER, GraphTuning(**tuning),  # type: ignore[arg-type]
                         RecallTuning())


async def test_an_aggregation_question_brings_in_a_member_no_ranking_found() -> None:
    found = candidate(0.10, 0.60)
    far_member = hit(0.55)  # "Caroline ran a charity race": the question's words miss it
    weak_member = hit(0.20)
    port = FakeClusters([ClusterHit(uuid4(), 0.7, (found.id, far_member.id, weak_member.id))])
    r = request("What activities does Caroline do?")
    r.vector, r.candidates = [1.0], [found]
    await stage(port, [far_member, weak_member], cluster_members=2)(r)
    assert [c.id for c in r.candidates][:2] == [found.id, far_member.id]
    rrf = RecallTuning().rrf_k
    assert r.candidates[1].match == pytest.approx(1.0 / (rrf + 2))  # its rank among members
    assert weak_member.id in {c.id for c in r.candidates}  # in the row read, no weight
    assert next(c for c in r.candidates if c.id == weak_member.id).match == 0.0
    assert port.asked == [(EMBEDDER.model, 2)]


async def test_without_a_vector_or_a_summary_the_candidates_stay() -> None:
    port = FakeClusters([])
    r = request()
    r.candidates = [candidate(0.3)]
    await stage(port)(r)  # no vector: nothing asked
    assert port.asked == []
    r.vector = [1.0]
    await stage(port)(r)
    assert [c.match for c in r.candidates] == [0.3]


async def test_the_best_cluster_comes_first_and_a_member_counts_once() -> None:
    a, b, c = candidate(0.0, 0.9), candidate(0.0, 0.8), candidate(0.0, 0.7)
    port = FakeClusters([ClusterHit(uuid4(), 0.8, (b.id, c.id)),
                         ClusterHit(uuid4(), 0.6, (a.id, b.id))])
    r = request()
    r.vector, r.candidates = [1.0], [a, b, c]
    await stage(port, cluster_members=1)(r)
    assert [x.id for x in r.candidates] == [b.id, a.id, c.id]
