"""Recall through clusters: a question matched against summary nodes brings their best members."""

from __future__ import annotations

from uuid import UUID

from memlane.domain.policy import GraphTuning, RecallTuning
from memlane.ports.clusters import ClusterHit, ClusterPort
from memlane.ports.embedding import EmbeddingPort
from memlane.ports.memories import CandidateSearchPort
from memlane.service.retrieval.candidates import Candidate
from memlane.service.retrieval.pipeline import Retrieval


class ClusterRecall:
    """Reads `vector` and `candidates`; rewrites `candidates`. The question's
    `cluster_matches` nearest summaries (by their members' mean vector) each bring their
    `cluster_members` members nearest the question, as one more ranking of the fusion at
    `cluster_weight`: the best cluster's best member first. The summary itself is never a
    candidate (its members say what it says, and they are what a context can show); a
    member still needs the context's usual cosine to be shown. One read of the owner's
    summaries, one of lean rows for members the other rankings did not find."""

    def __init__(
        self, clusters: ClusterPort, search: CandidateSearchPort, embedder: EmbeddingPort,
        tuning: GraphTuning, recall: RecallTuning,
    ) -> None:
        self._clusters = clusters
        self._search = search
        self._embedder = embedder
        self._tuning = tuning
        self._recall = recall

    async def __call__(self, r: Retrieval) -> None:
        tuning = self._tuning
        if r.vector is None or tuning.cluster_matches < 1 or tuning.cluster_members < 1:
            return
        hits = await self._clusters.nearest(
            r.owner, r.vector, self._embedder.model, tuning.cluster_matches)
        if not hits:
            return
        by_id = {c.id: c for c in r.candidates}
        wanted = {m for hit in hits for m in hit.members}
        if missing := [m for m in sorted(wanted, key=str) if m not in by_id]:
            for row in await self._search.candidates_by_id(r.owner, missing, r.vector):
                by_id[row.id] = Candidate(row, row.score, 0.0, False)
        cosine = {i: r.rankings.similarities.get(i, c.similarity) for i, c in by_id.items()}
        ranked = self._members(hits, by_id, cosine)
        recall = self._recall
        for rank, memory_id in enumerate(ranked, start=1):
            by_id[memory_id].match += tuning.cluster_weight / (recall.rrf_k + rank)
        r.candidates = sorted(by_id.values(), key=lambda c: -c.match)

    def _members(
        self, hits: list[ClusterHit], found: dict[UUID, Candidate], cosine: dict[UUID, float]
    ) -> list[UUID]:
        """Each cluster's best members by cosine to the question, best cluster first, each
        member once."""
        ranked: list[UUID] = []
        for hit in hits:
            present = sorted((m for m in hit.members if m in found and m not in ranked),
                             key=lambda m: (-cosine[m], str(m)))
            ranked.extend(present[: self._tuning.cluster_members])
        return ranked
