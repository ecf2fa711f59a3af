"""The language stage: each first-stage cosine less what its pair of languages adds."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from uuid import UUID

from memlane.domain.errors import EmbeddingUnavailable
from memlane.domain.model import SearchCandidate, Vector
from memlane.domain.retrieval import PARALLEL, LanguageAxis, language_axis
from memlane.ports.embedding import EmbeddingPort
from memlane.ports.memories import CandidateSearchPort
from memlane.service.retrieval.pipeline import Retrieval

log = logging.getLogger(__name__)
Offsets = Sequence[tuple[str, str, float]]


class LanguageBias:
    """Rewrites `rankings`' cosines (and the dense and time rankings' order by them).

    A multilingual model rates every memory in some languages higher than in others, so a
    German question finds an unrelated German memory before the English one that answers
    it (docs/recall.md, "Two languages"). Each ranked memory's language is read off its
    vector in one query (its projection on the model's `LanguageAxis`), the question's off
    its own, and each cosine loses the pair's offset, measured on unrelated pairs
    (`SimilarityScale.language_offsets`; English-English is the reference, 0). The first
    rankings, given this stage, read the projections with the lexical hits' cosines; only
    the memories they did not ask about (reached by a name) are read here.
    """

    def __init__(
        self, search: CandidateSearchPort, embedder: EmbeddingPort, offsets: Offsets
    ) -> None:
        self._search = search
        self._embedder = embedder
        self._offsets = {(asked, stored): value for asked, stored, value in offsets}
        self._axis: LanguageAxis | None = None

    async def __call__(self, r: Retrieval) -> None:
        ranked = list(r.rankings.similarities)
        if r.vector is None or not ranked or not self._offsets:
            return
        axis = await self._axis_of()
        if axis is None:
            return
        # The question's language is read off its own embedding (the axis' cut was set on
        # questions as the model embeds them), its cosines are the centred vector's.
        asked = axis.of_question(r.vector if r.asked_vector is None else r.asked_vector)
        projections = dict(r.rankings.projections)
        if unread := [memory_id for memory_id in ranked if memory_id not in r.rankings.projected]:
            projections.update(
                await self._search.similarities(r.owner, unread, axis.direction)
            )
        offsets = {
            memory_id: self._offsets.get((asked, axis.of_document(projection)), 0.0)
            for memory_id, projection in projections.items()
        }
        if not any(offsets.values()):
            return
        rankings = r.rankings
        rankings.similarities = {
            memory_id: cosine - offsets.get(memory_id, 0.0)
            for memory_id, cosine in rankings.similarities.items()
        }
        rankings.dense = _reranked(rankings.dense, offsets)
        rankings.by_time = _reranked(rankings.by_time, offsets)

    async def direction(self) -> Vector | None:
        """The model's language axis (None while the embedder is down)."""
        axis = await self._axis_of()
        return None if axis is None else axis.direction

    async def _axis_of(self) -> LanguageAxis | None:
        """The model's axis, from `PARALLEL` embedded once (again later if the embedder
        was down). No lock: two first questions at once both build the same axis, and a
        lock would tie the stage to the event loop that first waited on it."""
        if self._axis is None:
            english = [e for e, _ in PARALLEL]
            german = [g for _, g in PARALLEL]
            try:
                documents = await self._embedder.embed([*english, *german])
                questions = await self._embedder.embed([*english, *german], kind="query")
            except EmbeddingUnavailable as error:
                log.warning("language axis not read, cosines left as they are: %s", error)
                return None
            half = len(PARALLEL)
            self._axis = language_axis(
                documents[:half], documents[half:], questions[:half], questions[half:]
            )
        return self._axis


def _reranked(
    ranking: Sequence[SearchCandidate], offsets: Mapping[UUID, float]
) -> list[SearchCandidate]:
    """A cosine ranking again, by each cosine less its offset (stable among equals)."""
    moved = [replace(c, score=c.score - offsets.get(c.id, 0.0)) for c in ranking]
    return sorted(moved, key=lambda c: -c.score)
