"""Filters of the entries: eligibility, texts already in the prompt, superseded memories."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from uuid import UUID

from memlane.domain.errors import EmbeddingUnavailable
from memlane.domain.graph import asks_about_past
from memlane.domain.model import Owner, Vector
from memlane.domain.retrieval import ContextOptions
from memlane.ports.embedding import EmbeddingPort
from memlane.ports.memories import CandidateSearchPort
from memlane.service.retrieval.candidates import Candidate
from memlane.service.retrieval.demotion import replaced
from memlane.service.retrieval.pipeline import Retrieval
from memlane.service.security import AttributeSealer

log = logging.getLogger(__name__)


class Eligibility:
    """Reads and narrows `candidates`; writes `excluded`. A dense hit must clear the
    rag_threshold, a lexical hit stands on its shared rare words; the current
    conversation's memories are already in the prompt."""

    def __init__(self, attributes: AttributeSealer, rag_threshold: float) -> None:
        self._attributes = attributes
        self._threshold = rag_threshold

    async def __call__(self, r: Retrieval) -> None:
        r.excluded = excluded_conversation(self._attributes, r.owner, r.options)
        r.candidates = [
            c for c in r.candidates
            if (r.vector is None or c.lexical or c.similarity >= self._threshold)
            and not r.excluded(c.hit.conversation_id)
        ]
        if not r.candidates:
            r.finish()


def excluded_conversation(
    attributes: AttributeSealer, owner: Owner, options: ContextOptions
) -> Callable[[str | None], bool]:
    """Whether a candidate's stored conversation is the current one: the id's blind token,
    or the plaintext id of a row stored before sealing (seal-existing not run)."""
    token = attributes.conversation_token(owner.tenant, options.conversation_id)
    stored = replace(options, conversation_id=token)
    return lambda c: options.excludes_conversation(c) or stored.excludes_conversation(c)


class ActiveContext:
    """Writes `active` (the texts already in the prompt, embedded in one call) and narrows
    `candidates` to those below `repeat_similarity` (the model's active-context line,
    domain/similarity.py) to every one of them."""

    def __init__(
        self, embedder: EmbeddingPort, search: CandidateSearchPort, repeat_similarity: float
    ) -> None:
        self._embedder = embedder
        self._search = search
        self._repeat = repeat_similarity

    async def __call__(self, r: Retrieval) -> None:
        r.active = await self._vectors(r.options.active_context)
        r.candidates = await without_active(
            self._search, r.owner, r.candidates, r.active, self._repeat
        )
        if not r.candidates:
            r.finish()

    async def _vectors(self, active: Sequence[str]) -> list[Vector]:
        """None if the embedder is down: nothing is then left out for them."""
        if not active:
            return []
        try:
            return await self._embedder.embed(list(active), kind="document")
        except EmbeddingUnavailable as error:
            log.warning("embedder unavailable, active context not compared: %s", error)
            return []


async def without_active(
    search: CandidateSearchPort, owner: Owner, candidates: list[Candidate],
    vectors: Sequence[Vector], repeat_similarity: float,
) -> list[Candidate]:
    """The candidates not already in the prompt: below `repeat_similarity` to every text
    of it (one similarity read per text)."""
    if not vectors or not candidates:
        return candidates
    ids = [c.id for c in candidates]
    repeated: set[UUID] = set()
    for vector in vectors:
        cosines = await search.similarities(owner, ids, vector)
        repeated |= {i for i, c in cosines.items() if c >= repeat_similarity}
    return [c for c in candidates if c.id not in repeated]


class Superseded:
    """Narrows `candidates`, `added` and `expansion.added`: what was replaced gives way to
    what replaced it, unless the question asks about the past or include_superseded. The
    memory's own marker decides, kept when the replacement is gone; the graph's replacing
    edges add what an older memlane only recorded there."""

    async def __call__(self, r: Retrieval) -> None:
        if r.options.include_superseded or asks_about_past(r.query):
            return
        gone = set(r.expansion.superseded_by)
        r.candidates = [c for c in r.candidates if c.id not in gone and not replaced(c)]
        r.added = [c for c in r.added if c.id not in gone and not replaced(c)]
        r.expansion.added = [
            c for c in r.expansion.added if c.id not in gone and not replaced(c)
        ]


class Join:
    """Writes `added`: the neighbours and what the graph reached, each once at its better
    match, outside the current conversation and not already in the prompt."""

    def __init__(self, search: CandidateSearchPort, repeat_similarity: float) -> None:
        self._search = search
        self._repeat = repeat_similarity

    async def __call__(self, r: Retrieval) -> None:
        joined: dict[UUID, Candidate] = {}
        for c in r.added + r.expansion.added:
            if c.id not in joined or c.match > joined[c.id].match:
                joined[c.id] = c
        r.added = await without_active(
            self._search, r.owner,
            [c for c in joined.values() if not r.excluded(c.hit.conversation_id)], r.active,
            self._repeat,
        )
        if not r.candidates and not r.added:
            r.finish()
