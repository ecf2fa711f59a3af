"""Candidates: a memory found for a query, and the first-stage rankings that find them."""

from __future__ import annotations

from dataclasses import dataclass, field
from uuid import UUID

from memlane.domain.graph import Edge
from memlane.domain.model import ContextRole, SearchCandidate


@dataclass
class Candidate:
    """A memory found for a query: its cosine, its fused match score, whether words matched."""

    hit: SearchCandidate
    similarity: float
    match: float
    lexical: bool

    @property
    def id(self) -> UUID:
        return self.hit.id


@dataclass
class Rankings:
    """The first-stage rankings of a query, best first, on lean rows only.

    dense: by cosine to the query; lexical: by BM25 over the blind index terms; by_name:
    the memories that mention a name the query names (entity recall); by_time: by cosine,
    the memories written within the time the query points at ("four weeks ago").
    `similarities` holds every ranked memory's cosine to the query (0.0 without a vector or
    an embedding). `projections`: each memory in `projected` on the model's language axis,
    read with the lexical hits' cosines for the language stage (a memory gone meanwhile has
    none).
    """

    dense: list[SearchCandidate] = field(default_factory=list)
    lexical: list[SearchCandidate] = field(default_factory=list)
    by_name: list[SearchCandidate] = field(default_factory=list)
    by_time: list[SearchCandidate] = field(default_factory=list)
    similarities: dict[UUID, float] = field(default_factory=dict)
    projections: dict[UUID, float] = field(default_factory=dict)
    projected: frozenset[UUID] = frozenset()

    def hits(self) -> dict[UUID, SearchCandidate]:
        """Every memory ranked, once (the dense row wins: it carries the cosine)."""
        found = {c.id: c for c in self.by_name}
        found.update({c.id: c for c in self.by_time})
        found.update({c.id: c for c in self.lexical})
        found.update({c.id: c for c in self.dense})
        return found


@dataclass
class Expansion:
    """What the graph adds to a context: new candidates with their role, and which
    candidates were replaced (id -> the memory that replaced it)."""

    added: list[Candidate] = field(default_factory=list)
    roles: dict[UUID, ContextRole] = field(default_factory=dict)
    superseded_by: dict[UUID, UUID] = field(default_factory=dict)
    paths: dict[UUID, Edge] = field(default_factory=dict)
