"""Graph-aware context: entries bring what the graph links them to (Chvor spreading
activation); what was superseded gives way to what replaced it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from uuid import UUID

from memlane.domain.graph import (
    HOP_DECAY,
    Adjacency,
    Edge,
    EdgeKind,
    Reached,
    Walk,
    adjacency,
    join_floor,
    spread,
)
from memlane.domain.model import ContextRole, Owner, Vector
from memlane.domain.policy import GraphTuning, MemoryPolicy
from memlane.ports.graph import GraphPort
from memlane.ports.memories import CandidateSearchPort
from memlane.service.retrieval.candidates import Candidate, Expansion
from memlane.service.retrieval.pipeline import Retrieval


class GraphExpansion:
    """One read of edges (a bounded neighbourhood of the best entries), one of lean rows."""

    def __init__(self, graph: GraphPort, search: CandidateSearchPort, tuning: GraphTuning):
        self._graph = graph
        self._search = search
        self._tuning = tuning

    async def expand(
        self, owner: Owner, entries: Sequence[Candidate], vector: Vector | None, now: datetime,
        *, places: int | None = None, slack: float = 0.0, threshold: float = 0.0,
    ) -> Expansion:
        """`places`, `slack`: the context takes the best `places` by match / best match plus
        at most `slack`; a memory reached that cannot make it is not read (None: every
        memory reached up to expansion_limit is). `threshold`: the cosine to the query a
        memory reached over a temporal link needs, as an entry does (with a `vector`)."""
        tuning = self._tuning
        if not tuning.enabled or not entries:
            return Expansion()
        best = max(c.match for c in entries) or 1.0
        seeds = {c.id: min(1.0, c.match / best) for c in entries[: tuning.expansion_seeds]}
        also = frozenset(c.id for c in entries)
        # The most any memory reached can match: a seed's activation through one full-strength
        # link. When even that cannot make the context, only the replacements are read (what
        # was superseded gives way to what replaced it whether or not the graph expands the
        # context), and the walk only if they change that: a replaced entry left out lowers
        # the bar, and a replaced seed passes its whole activation to its replacement.
        ceiling = best * max(seeds.values(), default=0.0) * HOP_DECAY * tuning.expansion_weight
        if ceiling < join_floor((c.match for c in entries), places, slack):
            replacements = Walk({}, fan_out=0, frontier=0, also=also)
            graph = adjacency(await self._graph.neighbourhood(owner, replacements), now)
            if not graph.superseded_by.keys() & seeds.keys() and ceiling < self._floor(
                entries, graph, places, slack
            ):
                return Expansion(superseded_by=dict(graph.superseded_by))
        # One read: the seeds' strongest links, those of the best memories they reach, and
        # every replacement of an entry or of a memory reached (graph_sql.NEIGHBOURHOOD).
        edges = await self._graph.neighbourhood(owner, Walk(
            seeds, fan_out=tuning.expansion_fan_out,
            frontier=tuning.expansion_seeds if tuning.expansion_hops > 1 else 0, also=also,
        ))
        graph = adjacency(edges, now)
        if not seeds:
            return Expansion(superseded_by=dict(graph.superseded_by))
        reached = spread(seeds, graph, max_hops=tuning.expansion_hops)
        known_ids = {c.id for c in entries}
        floor = self._floor(entries, graph, places, slack)
        fresh = sorted(
            (node for node, how in reached.items() if node not in known_ids
             and best * how.activation * tuning.expansion_weight >= floor),
            key=lambda node: -reached[node].activation,
        )[: tuning.expansion_limit]
        found = await self._search.candidates_by_id(owner, fresh, vector) if fresh else []
        expansion = Expansion(superseded_by=dict(graph.superseded_by))
        for hit in found:
            how = reached[hit.id]
            if how.via is EdgeKind.TEMPORAL and vector is not None and hit.score < threshold:
                # Written about the same time, no more: nearness in time alone is no reason
                # for an errand noted that hour to fill a free place. Stated links (causal,
                # semantic, entity…) bring what the question alone would not.
                continue
            match = best * how.activation * tuning.expansion_weight
            expansion.added.append(Candidate(hit, hit.score, match, False))
            expansion.roles[hit.id] = _role(how)
            path = _edge_between(edges, how.parent, hit.id)
            if path is not None:
                expansion.paths[hit.id] = path
        return expansion

    @staticmethod
    def _floor(
        entries: Sequence[Candidate], graph: Adjacency, places: int | None, slack: float
    ) -> float:
        # Against the entries that stay (a replaced one may be left out of the context); the
        # ranking's best match may still come from a replaced entry's chain neighbour.
        return join_floor(
            (c.match for c in entries if c.id not in graph.superseded_by), places, slack,
            best=max(c.match for c in entries),
        )

    async def reinforce(
        self, owner: Owner, expansion: Expansion, chosen: Sequence[UUID], now: datetime
    ) -> None:
        """The edges that brought a chosen memory are used: each strengthens (+0.15, cap 1),
        in one write the adapter may defer off the request."""
        keys = [expansion.paths[i].key for i in chosen if i in expansion.paths]
        if keys:
            await self._graph.use_edges(owner, keys, now)


def _role(how: Reached) -> ContextRole:
    if how.hop <= 1 and how.via is EdgeKind.SEMANTIC:
        return ContextRole.SEMANTIC
    if how.hop <= 1 and how.via is EdgeKind.CHAIN:
        return ContextRole.CHAIN
    return ContextRole.ACTIVATION


def _edge_between(edges: Sequence[Edge], one: UUID, other: UUID) -> Edge | None:
    between = [e for e in edges if {e.source, e.target} == {one, other}]
    return max(between, key=lambda e: e.weight, default=None)


class StartExpansion:
    """Starts the graph's read (replacements, spreading activation) from the entries in
    `candidates`, beside the stages that follow; JoinExpansion waits for it."""

    def __init__(self, expansion: GraphExpansion, policy: MemoryPolicy) -> None:
        self._expansion = expansion
        self._policy = policy

    async def __call__(self, r: Retrieval) -> None:
        # What a memory reached would need to make the context: the selection's ranking
        # (match / best + tiebreak x relevance, relevance at most the sum of its weights);
        # unknown while the active context may still drop entries.
        weights, tiebreak = self._policy.weights, self._policy.recall.relevance_tiebreak
        # The entries as they are now: later stages may raise a match in place.
        entries = [replace(c) for c in r.candidates]
        r.start("graph", self._expansion.expand(
            r.owner, entries, r.vector, r.now,
            places=None if r.options.active_context else r.places,
            slack=tiebreak * (weights.similarity + weights.importance + weights.freshness
                              + weights.confidence + weights.emotion),
            threshold=self._policy.rag_threshold,
        ))


class JoinExpansion:
    """Writes `expansion`: what the graph's read found (nothing when it was not started)."""

    async def __call__(self, r: Retrieval) -> None:
        r.expansion = await r.result("graph", Expansion())
