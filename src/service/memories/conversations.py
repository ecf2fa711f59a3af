"""Adding a conversation's messages: segments stored in order, chained, causally linked."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any
from uuid import uuid4

from memlane.domain.detail import Provenance
from memlane.domain.errors import DecryptionFailed, InvalidMemory, StorageUnavailable
from memlane.domain.graph import CAUSAL_WEIGHT, Edge, EdgeKind, follows_causally
from memlane.domain.memories import (
    GATE_KEY,
    NAMES_KEY,
    ROLES_KEY,
    SEGMENT_KEY,
    AddedMessages,
    Message,
    Segment,
    classify,
    estimate_importance,
    segment_messages,
)
from memlane.domain.model import (
    Memory,
    MemoryFilter,
    NewMemory,
    Owner,
    RememberResult,
    StoredMemory,
)
from memlane.domain.policy import MemoryPolicy
from memlane.ports.clock import Clock
from memlane.ports.graph import GraphPort
from memlane.ports.memories import MemoryStorePort
from memlane.service.entities import Named
from memlane.service.memories.gating import GateCounts, SegmentGate
from memlane.service.memories.validation import check_identifier
from memlane.service.memories.writing import Writer
from memlane.service.security import Sealer

log = logging.getLogger(__name__)
MAX_CONVERSATION_ID_CHARS = 200
# Segments without a time of their own keep their order by these steps after the call's now.
ORDER_STEP = timedelta(microseconds=1)


class Conversations:
    """The conversation use case (PMG): each user message with the reply after it is one
    memory, never dedup-merged, chained to its neighbours in both directions."""

    def __init__(
        self,
        writer: Writer,
        store: MemoryStorePort,
        sealer: Sealer,
        graph: GraphPort | None,
        policy: MemoryPolicy,
        clock: Clock,
        gate: SegmentGate | None = None,
    ) -> None:
        self._writer = writer
        self._store = store
        self._sealer = sealer
        self._graph = graph
        self._policy = policy
        self._clock = clock
        self._gate = gate

    @property
    def gate_counts(self) -> GateCounts | None:
        """What the heuristic gate decided since start (None: no gate)."""
        return None if self._gate is None else self._gate.counts

    async def add_messages(
        self,
        owner: Owner,
        conversation_id: str,
        messages: Sequence[Message],
        metadata: Mapping[str, Any] | None = None,
    ) -> AddedMessages:
        """`metadata` joins every segment's own (an imported chat's title, its source)."""
        conversation_id = _checked_id(conversation_id)
        segments = segment_messages(messages)
        now = self._clock()
        previous = await self._last_segment(owner, conversation_id)
        before = None if previous is None else self._metadata(previous)
        first = 0 if before is None else int(before.get(SEGMENT_KEY, -1)) + 1
        items = [
            self._new_memory(segment, conversation_id, first + i, now + i * ORDER_STEP, metadata)
            for i, segment in enumerate(segments)
        ]
        items = await self._gated(owner, items, segments, before)
        # Facts come from the user's own words, never from a reply or a named speaker's.
        said = [None if s.names else s.user_text for s in segments]
        results = await self._writer.remember_many(owner, items, said)
        memories = [r.memory for r in results]
        edges = self._conversation_edges(previous, memories, now)
        if self._graph is not None and edges:
            try:
                await self._graph.add_edges(
                    owner, edges, cap_per_node=self._policy.graph.max_semantic_edges
                )
            except StorageUnavailable as error:
                # The segments are stored: a retry after an error would store them twice.
                log.warning("chain of %d segments not stored: %s", len(memories), error)
                edges = []
        return AddedMessages(tuple(memories), tuple(edges) + _write_edges(results, now))

    def _new_memory(
        self, segment: Segment, conversation_id: str, position: int, fallback: datetime,
        extra: Mapping[str, Any] | None,
    ) -> NewMemory:
        cues = self._policy.cues
        said = segment.user_text or segment.reply_text or segment.content
        return NewMemory(
            content=segment.content,
            memory_type=segment.memory_type or classify(said, cues),
            importance=estimate_importance(said, segment.reply_text, cues),
            conversation_id=conversation_id,
            metadata={
                **(extra or {}),
                SEGMENT_KEY: position,
                ROLES_KEY: [r.value for r in segment.roles],
                **({NAMES_KEY: list(segment.names)} if segment.names else {}),
            },
            created_at=segment.created_at or fallback,
            provenance=Provenance.REPLIED if segment.replied else Provenance.EXTRACTED,
            inferred_type=segment.memory_type is None,
        )

    async def _last_segment(self, owner: Owner, conversation_id: str) -> StoredMemory | None:
        """The conversation's newest memory (its id and sealed attributes suffice)."""
        wanted = self._sealer.attributes.index_filter(
            owner.tenant, MemoryFilter(conversation_id=conversation_id)
        )
        page = await self._store.list(owner, wanted, None, 1)
        return page.items[0] if page.items else None

    def _metadata(self, previous: StoredMemory) -> Mapping[str, Any]:
        """The metadata of the conversation's newest memory (empty if unreadable: numbering
        restarts, the chain edge to it is still made by id)."""
        try:
            return self._sealer.attributes.open(previous).metadata
        except DecryptionFailed:
            return {}

    async def _gated(
        self, owner: Owner, items: Sequence[NewMemory], segments: Sequence[Segment],
        before: Mapping[str, Any] | None,
    ) -> list[NewMemory]:
        """Each segment with the gate's decision in its metadata (the write path reads it)."""
        if self._gate is None or not self._gate.enabled:
            return list(items)
        decisions = await self._gate.decide(owner, [
            Named(uuid4(), segment.content, segment.names) for segment in segments
        ], before)
        return [
            replace(item, metadata={**item.metadata, GATE_KEY: decision.as_metadata()})
            for item, decision in zip(items, decisions, strict=True)
        ]

    def _conversation_edges(
        self, previous: StoredMemory | None, memories: Sequence[Memory], now: datetime
    ) -> list[Edge]:
        if not self._policy.graph.enabled:
            return []
        chain = ([previous.id] if previous is not None else []) + [m.id for m in memories]
        causal = [False] * (len(chain) - len(memories)) + [
            follows_causally(m.content) for m in memories
        ]
        edges: list[Edge] = []
        for at in range(1, len(chain)):
            before, after = chain[at - 1], chain[at]
            edges.append(Edge(before, after, EdgeKind.CHAIN, 1.0, now, now))
            edges.append(Edge(after, before, EdgeKind.CHAIN, 1.0, now, now))
            if causal[at]:
                edges.append(Edge(before, after, EdgeKind.CAUSAL, CAUSAL_WEIGHT, now, now))
        return edges


def _checked_id(conversation_id: str) -> str:
    cleaned = conversation_id.strip() if isinstance(conversation_id, str) else ""
    if not cleaned or len(cleaned) > MAX_CONVERSATION_ID_CHARS:
        raise InvalidMemory(
            f"conversation_id must be 1 to {MAX_CONVERSATION_ID_CHARS} characters"
        )
    check_identifier("conversation_id", cleaned)
    return cleaned


def _write_edges(results: Sequence[RememberResult], now: datetime) -> tuple[Edge, ...]:
    return tuple(
        Edge(r.memory.id, target, EdgeKind(kind), weight, now, now)
        for r in results
        for target, kind, weight in r.edges
    )
