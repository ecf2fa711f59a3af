"""Conversation-neighbour expansion (PMG's ±n chain): the turns around a strong hit come along."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from uuid import UUID

from memlane.domain.model import Owner, SearchCandidate, Vector
from memlane.domain.policy import RecallTuning
from memlane.domain.retrieval import asks_about_replies, reply_share
from memlane.ports.memories import CandidateSearchPort
from memlane.service.retrieval.candidates import Candidate
from memlane.service.retrieval.pipeline import Retrieval


async def expand_neighbours(
    search: CandidateSearchPort,
    owner: Owner,
    ranked: Sequence[Candidate],
    vector: Vector | None,
    tuning: RecallTuning,
) -> list[Candidate]:
    """Neighbours of the best `neighbour_seeds` candidates that are not candidates yet.

    Each scores its seed's match times neighbour_weight per step away, scaled by its own
    relevance (`on_topic`) and by whose words it holds (`reply_share`); a neighbour that is
    already a candidate keeps the higher of that and its own match (updated in place).
    """
    # A memory outside any conversation has no neighbours: no read for it.
    seeds = [c for c in ranked[: tuning.neighbour_seeds] if c.hit.conversation_id is not None]
    if not seeds or tuning.neighbour_span < 1 or tuning.neighbour_weight <= 0:
        return []
    # Lean rows with their cosine to the query computed by the port: no embeddings travel.
    rows = await search.neighbour_candidates(
        owner, [c.id for c in seeds], tuning.neighbour_span, vector
    )
    known = {c.id: c for c in ranked}
    chains: dict[str | None, list[SearchCandidate]] = {}
    for row in [c.hit for c in seeds] + rows:
        chains.setdefault(row.conversation_id, []).append(row)
    seed_match = {c.id: c.match for c in seeds}
    best_similarity = max(c.similarity for c in seeds)
    added: list[Candidate] = []
    for chain in chains.values():
        chain.sort(key=lambda r: (r.created_at, r.id))
        for at, row in enumerate(chain):
            if row.id in seed_match:
                continue
            current = known.get(row.id)
            inherited = inherited_match(
                chain, at, seed_match, tuning.neighbour_span, tuning.neighbour_weight
            ) * on_topic(
                current.similarity if current is not None else row.score,
                best_similarity, tuning.neighbour_relevance, tuning.neighbour_floor,
            ) * reply_share(row.traits, tuning.reply_weight)
            if current is not None:
                current.match = max(current.match, inherited)
            elif inherited > 0:
                added.append(Candidate(row, row.score, inherited, False))
    return added


def inherited_match(
    chain: Sequence[SearchCandidate],
    at: int,
    seed_match: dict[UUID, float],
    span: int,
    weight: float,
) -> float:
    """The best seed match within `span` places of chain[at], times weight per step away.

    The chain holds every row within span of each seed, so a distance in the chain is the
    distance in the conversation.
    """
    first = max(0, at - span)
    return max(
        (
            seed_match[row.id] * weight ** abs(at - place)
            for place, row in enumerate(chain[first : at + span + 1], start=first)
            if row.id in seed_match
        ),
        default=0.0,
    )


def on_topic(
    similarity: float, best_similarity: float, share: float, floor: float = 0.0
) -> float:
    """The part of its inheritance a neighbour keeps: 1 - share, plus share times its cosine
    to the query relative to the best seed's, both counted from `floor` (clipped to [0, 1]).

    The turns around a hit are context for it, but a "Thanks, talk soon!" between two seeds
    should not take a place an on-topic turn could have: on LoCoMo, half of the inheritance
    following the neighbour's own cosine raised recall@10 from 0.716 to 0.723 at the same
    weight (docs/recall.md). `floor` is the model's cosine for an unrelated turn: 0 for
    MiniLM, but multilingual-e5-small gives any turn of a conversation 0.73 or more, so a
    plain ratio would call every turn on topic (docs/embeddings.md). Without a query vector
    (no cosines) nothing is scaled.
    """
    if best_similarity <= floor or share <= 0.0:
        return 1.0
    relative = (similarity - floor) / (best_similarity - floor)
    return 1.0 - share + share * min(1.0, max(0.0, relative))


class Neighbours:
    """The stage: reads `candidates` (the entries), writes `added` (their chain neighbours
    not among them; an entry next to a stronger one may have its match raised in place)."""

    def __init__(self, search: CandidateSearchPort, tuning: RecallTuning) -> None:
        self._search = search
        self._tuning = tuning

    async def __call__(self, r: Retrieval) -> None:
        tuning = self._tuning
        if tuning.reply_weight < 1.0 and asks_about_replies(r.query):
            tuning = replace(tuning, reply_weight=1.0)
        r.added = await expand_neighbours(self._search, r.owner, r.candidates, r.vector, tuning)
