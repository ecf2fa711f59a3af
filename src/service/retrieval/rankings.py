"""The first stage: dense, lexical and by-name rankings, read while the query is embedded."""

from __future__ import annotations

import logging
from uuid import UUID

from memlane.domain.errors import EmbeddingUnavailable
from memlane.domain.model import SearchCandidate, Vector
from memlane.domain.retrieval import pointed_window
from memlane.ports.embedding import EmbeddingPort
from memlane.ports.memories import CandidateSearchPort
from memlane.service.retrieval.candidates import Rankings
from memlane.service.retrieval.centring import QuestionCentring
from memlane.service.retrieval.entity_recall import EntityRecall
from memlane.service.retrieval.language import LanguageBias
from memlane.service.retrieval.pipeline import Retrieval
from memlane.service.security import Sealer

log = logging.getLogger(__name__)


class FirstRankings:
    """Writes `vector` and `rankings`. The lexical search and the name lookup need no
    vector: they run in the database while the query is embedded (off the event loop); the
    cosines of the lexical hits are read while the dense search runs. With the language
    stage, the dense hits' projections on its axis are read while the lexical search runs,
    and the lexical hits' cosines with their projections in one read after it, so that
    stage reads nothing."""

    def __init__(
        self,
        search: CandidateSearchPort,
        embedder: EmbeddingPort,
        sealer: Sealer,
        names: EntityRecall | None = None,
        pointed_time: bool = False,
        language: LanguageBias | None = None,
        centring: QuestionCentring | None = None,
    ) -> None:
        """`pointed_time`: rank the memories written within the time the query points at
        ("four weeks ago", read against options.asked_at or now: domain.retrieval.when).
        `language`: the language stage that follows, whose projections are read here.
        `centring`: the question is compared less the model's mean document vector."""
        self._search = search
        self._embedder = embedder
        self._sealer = sealer
        self._names = names
        self._pointed_time = pointed_time
        self._language = language
        self._centring = centring

    async def __call__(self, r: Retrieval) -> None:
        terms = self._sealer.index_terms(r.owner.tenant, r.query)
        if terms:
            r.start("lexical", self._search.lexical_candidates(r.owner, terms, r.pool))
        lookup = None if self._names is None else self._names.lookup(r.owner, r.query)
        if lookup is not None:
            r.start("names", lookup)
        r.asked_vector = await self._embed_query(r.query)
        r.vector = r.asked_vector
        if r.vector is not None and self._centring is not None:
            r.vector = await self._centring(r.vector)
        rankings = Rankings()
        window = (
            pointed_window(r.query, r.options.asked_at or r.now) if self._pointed_time else None
        )
        axis = None
        if r.vector is not None:
            floor = -1.0 if r.min_similarity is None else r.min_similarity
            r.start("dense", self._search.dense_candidates(
                r.owner, r.vector, r.pool, min_similarity=floor
            ))
            if window is not None:
                r.start("time", self._search.dense_candidates(
                    r.owner, r.vector, r.pool, min_similarity=floor,
                    written=(window.start, window.end),
                ))
            if self._language is not None and (axis := await self._language.direction()):
                r.start("projected", self._projected(r, axis))
        rankings.lexical = await r.result("lexical", [])
        if r.vector is not None and axis is not None:
            await self._with_projections(r, rankings, r.vector, axis)
        elif r.vector is not None:
            if rankings.lexical:
                cosines = await self._search.similarities(
                    r.owner, [c.id for c in rankings.lexical], r.vector
                )
                # A hit deleted meanwhile has no cosine: 0, as for no embedding.
                rankings.similarities = {c.id: cosines.get(c.id, 0.0) for c in rankings.lexical}
            rankings.dense = await r.result("dense", [])
            rankings.by_time = await r.result("time", [])
        rankings.similarities.update({c.id: c.score for c in rankings.by_time})
        rankings.similarities.update({c.id: c.score for c in rankings.dense})
        mentioning: list[UUID] = await r.result("names", [])
        if self._names is not None and mentioning:
            rankings.by_name = await self._by_name(self._names, r, rankings, mentioning)
        r.rankings = rankings

    async def _projected(self, r: Retrieval, axis: Vector) -> dict[UUID, float | None]:
        """The dense (and time) hits' projections on the language axis, read as soon as
        they are in, while the lexical search still runs (keyed by every id asked: None for
        a memory gone meanwhile)."""
        dense: list[SearchCandidate] = await r.result("dense", [])
        by_time: list[SearchCandidate] = await r.result("time", [])
        ids = list(dict.fromkeys(c.id for c in (*dense, *by_time)))
        read = await self._search.similarities(r.owner, ids, axis) if ids else {}
        return {memory_id: read.get(memory_id) for memory_id in ids}

    async def _with_projections(
        self, r: Retrieval, rankings: Rankings, vector: Vector, axis: Vector
    ) -> None:
        """The cosines of the lexical hits the other rankings did not find, with their
        projections, in one read; the others' projections were read meanwhile."""
        rankings.dense = await r.result("dense", [])
        rankings.by_time = await r.result("time", [])
        early: dict[UUID, float | None] = await r.result("projected", {})
        alone = [c.id for c in rankings.lexical if c.id not in early]
        read = await self._search.similarities_to(r.owner, alone, [vector, axis]) if alone else {}
        # A hit deleted meanwhile has no cosine: 0, as for no embedding. A hit the dense or
        # time ranking found takes its cosine from there below (0.0 holds its place).
        rankings.similarities = {
            c.id: read[c.id][0] if c.id in read else 0.0 for c in rankings.lexical
        }
        rankings.projections = {i: p for i, p in early.items() if p is not None}
        rankings.projections.update({memory_id: pair[1] for memory_id, pair in read.items()})
        rankings.projected = frozenset(early) | frozenset(alone)

    @staticmethod
    async def _by_name(
        names: EntityRecall, r: Retrieval, rankings: Rankings, mentioning: list[UUID]
    ) -> list[SearchCandidate]:
        by_name = await names.ranked(
            r.owner, mentioning, rankings.hits(), rankings.similarities, r.vector, r.pool
        )
        for c in by_name:
            rankings.similarities.setdefault(c.id, c.score if r.vector is not None else 0.0)
        return by_name

    async def _embed_query(self, query: str) -> Vector | None:
        try:
            return (await self._embedder.embed([query], kind="query"))[0]
        except EmbeddingUnavailable as error:
            log.warning("embedder unavailable, searching by keywords only: %s", error)
            return None
