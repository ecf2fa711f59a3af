"""Writing memories: classify, score, embed in one batch, dedup-merge under the owner lock, seal."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Any
from uuid import UUID

from memlane.domain.detail import Provenance
from memlane.domain.errors import StorageUnavailable
from memlane.domain.graph import Moment, SupersessionDecision
from memlane.domain.memories import L2_MAX_CHARS, classify, estimate_importance, qa_content
from memlane.domain.model import Nearby, NewMemory, Owner, RememberResult
from memlane.domain.policy import MemoryPolicy
from memlane.ports.clock import Clock
from memlane.ports.memories import MemoryStorePort, MemoryWriteSession
from memlane.service.entities import EntityLinker, Named
from memlane.service.facts import FactRecorder, Said
from memlane.service.graph import GraphLinker, Written
from memlane.service.memories import audit as memory_audit
from memlane.service.memories.drafting import Draft, Drafting, dedups, is_transcript, vector_of
from memlane.service.memories.gating import gate_fired
from memlane.service.memories.parts import part_chains, split
from memlane.service.memories.validation import check_new
from memlane.service.security import (
    AuditTrail,
    Changes,
    Sealer,
    change_of,
    document_text,
    speaker_of,
    speakers_of,
)

log = logging.getLogger(__name__)


class Writer:
    """The write path shared by remember, remember_many and learn. Without a linker no
    graph grows (no links, no supersession); without a namer no entities are read; without
    facts no facts are read."""

    def __init__(
        self,
        store: MemoryStorePort,
        drafting: Drafting,
        sealer: Sealer,
        policy: MemoryPolicy,
        clock: Clock,
        trail: AuditTrail | None = None,
        linker: GraphLinker | None = None,
        namer: EntityLinker | None = None,
        facts: FactRecorder | None = None,
    ) -> None:
        self._store = store
        self._drafting = drafting
        self._sealer = sealer
        self._policy = policy
        self._clock = clock
        self._trail = trail
        self._linker = linker
        self._namer = namer
        self._facts = facts

    def _change(self, owner: Owner) -> AbstractAsyncContextManager[Changes]:
        return change_of(self._trail, owner)

    async def learn(
        self,
        owner: Owner,
        question: str,
        answer: str,
        *,
        conversation_id: str | None = None,
        tags: Sequence[str] = (),
        metadata: Mapping[str, Any] | None = None,
    ) -> RememberResult | None:
        """Remember a question/answer pair scored by the heuristics; None when too short."""
        question, answer = question.strip(), answer.strip()
        shortest = self._policy.min_learn_chars
        if len(question) < shortest or len(answer) < shortest:
            return None
        cues = self._policy.cues
        new = NewMemory(
            content=qa_content(question, answer),
            memory_type=classify(question, cues),
            importance=estimate_importance(question, answer, cues),
            conversation_id=conversation_id,
            tags=tuple(tags),
            metadata=dict(metadata or {}),
            provenance=Provenance.EXTRACTED,
        )
        # Facts come from the question: the answer is the assistant's "I".
        return (await self.remember_many(owner, [new], said=[question]))[0]

    async def remember_many(
        self, owner: Owner, items: Sequence[NewMemory], said: Sequence[str | None] | None = None
    ) -> list[RememberResult]:
        """Store each item, merging near-duplicates of stored memories and of earlier items.

        `said`: per item, what the user said in it (the text facts are read from); by
        default its content, none for a transcript's turn (someone else's "I")."""
        checked = [check_new(item, self._policy) for item in items]  # all or nothing
        if not checked:
            return []
        cut = split(checked, L2_MAX_CHARS)  # a text longer than the detail tier: parts
        said, checked = cut.said(said), cut.parts
        now = self._clock()
        affects = await self._drafting.affects(checked)
        fresh = [
            self._drafting.draft(owner, new, now, affect)
            for new, affect in zip(checked, affects, strict=True)
        ]
        vectors = await self._drafting.vectors.embed([document_text(d.memory) for d in fresh])
        for index, draft in enumerate(fresh):
            draft.embedding = None if vectors is None else vectors[index]
        # The audit's unit of work first: the write session joins its transaction and lock.
        async with self._change(owner) as changes, self._store.write_session(owner) as session:
            nearby = await self._probe(session, fresh)
            decisions = await self._judge(session, fresh, nearby, now)
            drafts: list[Draft] = []
            outcome: list[tuple[Draft, bool]] = []
            for draft, near, replaces in zip(fresh, nearby, decisions, strict=True):
                # A statement that replaces an older one is stored beside it, never merged.
                hit = None if replaces or not dedups(draft) else near.best
                target = None if replaces else self._drafting.duplicate_of(draft, hit, drafts, now)
                merged = None if target is None else self._drafting.merged(target, draft, now)
                if target is None or merged is None:
                    drafts.append(draft)
                    outcome.append((draft, False))
                    changes.add(memory_audit.created(draft.memory), *(
                        memory_audit.superseded(d.replaces, draft.memory.id, d.kind.value)
                        for d in replaces
                    ))
                else:
                    changes.add(memory_audit.merged(target.memory, merged, draft.memory.id))
                    target.memory = merged
                    target.reembed = True
                    outcome.append((target, True))
            await self._drafting.reembed([d for d in drafts if d.reembed])
            sealing = [d for d in drafts if d.reembed or not d.existing]
            sealed = {id(d): self._drafting.seal(d, now) for d in sealing}
            await session.insert_many([sealed[id(d)] for d in drafts if not d.existing])
            await session.replace_many([sealed[id(d)] for d in drafts if d.existing and d.reembed])
        # Facts and names are read while the graph links are stored: all only follow the commit.
        edges, _, _ = await asyncio.gather(
            self._link(owner, fresh, nearby, decisions, outcome, now),
            self._name(owner, outcome, now),
            self._read_facts(owner, fresh, outcome, said),
        )
        grouped = cut.grouped([
            RememberResult(d.memory, merged, edges.get(d.memory.id, ())) for d, merged in outcome
        ])
        if self._linker is not None and any(r.parts for r in grouped):
            await self._linker.store(owner, part_chains(grouped, now))
        return grouped

    async def _judge(
        self,
        session: MemoryWriteSession,
        fresh: Sequence[Draft],
        nearby: Sequence[Nearby],
        now: datetime,
    ) -> list[list[SupersessionDecision]]:
        if self._linker is None:
            return [[] for _ in fresh]
        # A transcript's turn (or a segment of named speakers) records what someone said
        # then, not what holds now for the user: it is linked, never judged as replacing.
        texts = [
            d.memory.content
            if d.embedding is not None and not is_transcript(d.memory.metadata)
            and gate_fired(d.memory.metadata) else None
            for d in fresh
        ]
        speakers = [speaker_of(d.memory.metadata) for d in fresh]
        return await self._linker.judge(session, texts, nearby, now, speakers)

    async def _link(
        self,
        owner: Owner,
        fresh: Sequence[Draft],
        nearby: Sequence[Nearby],
        decisions: Sequence[Sequence[SupersessionDecision]],
        outcome: Sequence[tuple[Draft, bool]],
        now: datetime,
    ) -> dict[UUID, tuple[tuple[UUID, str, float], ...]]:
        """Edges of the memories stored as new (a merge adds no node), after the commit."""
        if self._linker is None:
            return {}
        stored = {id(d) for d, merged in outcome if not merged}
        written = [
            # The conversation as stored (its blind token): the earlier memories it is
            # compared with are read from storage.
            Written(d.memory.id, near, replaces, Moment(
                d.memory.id, d.memory.created_at,
                self._sealer.attributes.conversation_token(owner.tenant, d.memory.conversation_id),
            ))
            for d, near, replaces in zip(fresh, nearby, decisions, strict=True)
            if id(d) in stored and d.embedding is not None
        ]
        try:
            linked = await self._linker.link(owner, written, now)
        except StorageUnavailable as error:
            # The memories are committed: a lost link must not turn the write into an error
            # a client would retry (and so store twice).
            log.warning("graph links of %d new memories not stored: %s", len(written), error)
            return {}
        made: dict[UUID, list[tuple[UUID, str, float]]] = {}
        for edge in linked:
            made.setdefault(edge.source, []).append((edge.target, edge.kind.value, edge.weight))
        return {memory_id: tuple(edges) for memory_id, edges in made.items()}

    async def _name(
        self, owner: Owner, outcome: Sequence[tuple[Draft, bool]], now: datetime
    ) -> None:
        """Entities of the memories written (new, or a merge's result), after the commit."""
        if self._namer is None:
            return
        named = {
            d.memory.id: Named(d.memory.id, document_text(d.memory), speakers_of(d.memory.metadata))
            for d, _ in outcome if gate_fired(d.memory.metadata)
        }
        try:
            await self._namer.link(owner, list(named.values()), now)
        except StorageUnavailable as error:
            # As for edges: the memories are committed, the write must not become an error.
            log.warning("entities of %d memories not stored: %s", len(named), error)

    async def _read_facts(
        self,
        owner: Owner,
        fresh: Sequence[Draft],
        outcome: Sequence[tuple[Draft, bool]],
        said: Sequence[str | None] | None,
    ) -> None:
        """Facts from what each item said, sourced to the memory it became (or merged into)."""
        if self._facts is None:
            return
        texts = said if said is not None else [
            None if is_transcript(d.memory.metadata) else d.memory.content for d in fresh
        ]
        await self._facts.read_after_write(owner, [
            Said(target.memory.id, text, draft.memory.created_at)
            for draft, (target, _), text in zip(fresh, outcome, texts, strict=True)
            if text and gate_fired(draft.memory.metadata)
        ])

    async def _probe(self, session: MemoryWriteSession, fresh: Sequence[Draft]) -> list[Nearby]:
        """What lies near each draft, in one query for the batch: the nearest stored memory
        (dedup) and, when the graph is on, the nearest few (links, supersession)."""
        linker = self._linker if self._linker is not None and self._linker.active else None
        probing = [
            i for i, d in enumerate(fresh)
            if dedups(d) or (linker is not None and d.embedding is not None)
        ]
        neighbours = 1 if linker is None else linker.probe_neighbours
        found = await session.nearest_many([vector_of(fresh[i]) for i in probing], neighbours)
        nearby = [Nearby(None)] * len(fresh)
        for i, near in zip(probing, found, strict=True):
            nearby[i] = near
        return nearby
