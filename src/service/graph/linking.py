"""Growing the graph as memories are written: semantic links and supersession (no LLM)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from memlane.domain.errors import DecryptionFailed
from memlane.domain.graph import (
    Candidate,
    Edge,
    EdgeKind,
    Moment,
    SupersessionDecision,
    judge_supersession,
    semantic_edges,
    temporal_edge_to,
)
from memlane.domain.memories import ROLES_KEY, user_words
from memlane.domain.model import Nearby, Owner
from memlane.domain.policy import GraphTuning
from memlane.ports.graph import GraphPort
from memlane.ports.memories import MemoryWriteSession
from memlane.service.security import Sealer, speaker_of

log = logging.getLogger(__name__)


@dataclass
class Written:
    """A memory just stored (not merged), what the write probe found near it, and the
    supersessions judged for it."""

    memory_id: UUID
    nearby: Nearby
    decisions: Sequence[SupersessionDecision] = ()
    moment: Moment | None = None  # when and where it was said: its temporal edge


class GraphLinker:
    """Judges supersession before a write merges, and stores the new memory's edges after."""

    def __init__(self, graph: GraphPort, sealer: Sealer, tuning: GraphTuning) -> None:
        self._graph = graph
        self._sealer = sealer
        self._tuning = tuning

    @property
    def active(self) -> bool:
        """Whether writes grow the graph (`graph.enabled`)."""
        return self._tuning.enabled

    @property
    def probe_neighbours(self) -> int:
        return self._tuning.probe_neighbours

    async def judge(
        self,
        session: MemoryWriteSession,
        texts: Sequence[str | None],
        nearby: Sequence[Nearby],
        now: datetime,
        speakers: Sequence[str | None] | None = None,
        said: Sequence[datetime] | None = None,
    ) -> list[list[SupersessionDecision]]:
        """For each new text (None: not judged), the older memories it replaces; `said`:
        when each was said (its memory's created_at; default now).

        The candidates are the nearest memories within the supersession band, read in one
        statement inside the write session and opened here; one that does not decrypt is
        left out (and logged)."""
        low, high = self._tuning.supersession_band
        wanted = self._tuning.supersession_candidates
        per_text = [
            [(i, c) for i, c in near.near if low <= c <= high][:wanted] if text else []
            for text, near in zip(texts, nearby, strict=True)
        ]
        ids = {i for candidates in per_text for i, _ in candidates}
        if not self._tuning.enabled or not ids:
            return [[] for _ in texts]
        plain: dict[UUID, str] = {}
        said_at: dict[UUID, datetime] = {}
        said_by: dict[UUID, str | None] = {}
        # Already replaced (marked superseded, or ended by a stated fact): history, so a new
        # value replaces the chain's current head and never an older value again.
        replaced: set[UUID] = set()
        for row in await session.read_many(list(ids)):
            try:
                opened = self._sealer.open(row, now)
            except DecryptionFailed:
                log.warning("supersession skips memory %s: it does not decrypt", row.id)
                continue
            # What the user said in it: a segment's reply is not the user's statement.
            plain[row.id] = user_words(opened.content, opened.metadata.get(ROLES_KEY))
            said_by[row.id] = speaker_of(opened.metadata)
            said_at[row.id] = opened.created_at
            if row.superseded_by is not None or row.valid_until is not None:
                replaced.add(row.id)
        # "I" of one speaker is not "I" of another: a turn only replaces its speaker's words.
        who = list(speakers) if speakers is not None else [None] * len(texts)
        when = list(said) if said is not None else [now] * len(texts)
        return [
            judge_supersession(
                text,
                # When each was said: a chain's newest value is its current head.
                [Candidate(i, plain[i], c, said_at[i]) for i, c in candidates
                 if plain.get(i) and said_by.get(i) == speaker],
                band=self._tuning.supersession_band, replaced=replaced, said_at=moment,
                learned=self._tuning.learned_judge,
            ) if text else []
            for text, candidates, speaker, moment in zip(texts, per_text, who, when, strict=True)
        ]

    def edges_for(self, written: Written, now: datetime) -> list[Edge]:
        """The new memory's edges: semantic links and what it supersedes."""
        if not self._tuning.enabled:
            return []
        edges = semantic_edges(
            written.memory_id, written.nearby.near, now,
            threshold=self._tuning.semantic_threshold, limit=self._tuning.max_semantic_edges,
        )
        edges += [
            Edge(written.memory_id, d.replaces, EdgeKind(d.kind.value), 1.0, now, now)
            for d in written.decisions
        ]
        return edges

    async def _temporal(
        self, owner: Owner, written: Sequence[Written], now: datetime
    ) -> list[Edge]:
        """An edge from the memory said just before each new one, when close in time and
        not already chained (one read for the batch)."""
        moments = [w.moment for w in written if w.moment is not None]
        if not self._tuning.enabled or not moments:
            return []
        before = await self._graph.predecessors(owner, moments)
        made = [temporal_edge_to(before.get(m.id), m, now) for m in moments]
        return [edge for edge in made if edge is not None]

    async def link(self, owner: Owner, written: Sequence[Written], now: datetime) -> list[Edge]:
        """Store every written memory's edges in one call; the edges made."""
        edges = [edge for w in written for edge in self.edges_for(w, now)]
        edges += await self._temporal(owner, written, now)
        if edges:
            await self._graph.add_edges(
                owner, edges, cap_per_node=self._tuning.max_semantic_edges
            )
        return edges

    async def store(self, owner: Owner, edges: Sequence[Edge]) -> None:
        """Store edges another rule made (a long text's parts chained)."""
        if edges and self._tuning.enabled:
            await self._graph.add_edges(
                owner, edges, cap_per_node=self._tuning.max_semantic_edges
            )
