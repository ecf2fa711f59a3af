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
from memlane.domain.graph import SupersessionDecision
from memlane.domain.memories import (
    L2_MAX_CHARS,
    ROLES_KEY,
    Replacement,
    classify,
    estimate_importance,
    qa_content,
    user_words,
)
from memlane.domain.model import Nearby, NewMemory, Owner, RememberResult
from memlane.domain.policy import MemoryPolicy
from memlane.ports.clock import Clock
from memlane.ports.memories import MemoryStorePort, MemoryWriteSession
from memlane.service.entities import EntityLinker
from memlane.service.facts import FactRecorder, Replaced
from memlane.service.graph import GraphLinker
from memlane.service.memories import audit as memory_audit
from memlane.service.memories.after_commit import AfterCommit
from memlane.service.memories.drafting import Draft, Drafting, dedups, is_transcript, vector_of
from memlane.service.memories.parts import part_chains, split
from memlane.service.memories.probing import Prober
from memlane.service.memories.superseding import Marked, Superseding
from memlane.service.memories.validation import check_new
from memlane.service.security import (
    AuditTrail,
    Changes,
    Sealer,
    change_of,
    document_text,
    speaker_of,
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
        superseding: Superseding | None = None,
        prober: Prober | None = None,
    ) -> None:
        self._store = store
        self._drafting = drafting
        self._sealer = sealer
        self._policy = policy
        self._clock = clock
        self._trail = trail
        self._linker = linker
        self._superseding = superseding
        self._prober = prober
        self._after = AfterCommit(sealer, linker, namer, facts, prober)

    @property
    def prober(self) -> Prober | None:
        """The optional model probe on fired segments (None: the heuristics alone)."""
        return self._prober

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
            inferred_type=True,
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
        fresh = await self._drafted(owner, checked, now)
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
                    changes.add(memory_audit.created(draft.memory))
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
            marked = await self._mark(owner, fresh, decisions, now)
            changes.add(*marked.changes)
            # A memory kept for its claims that still hold gets no replacing edge either; the
            # facts read next say whether any of its claims was replaced (docs/supersession.md).
            kept = {draft.memory.id: tuple(d.replaces for d in made if d.replaces in marked.kept)
                    for draft, made in zip(fresh, decisions, strict=True)}
            decisions = [[d for d in made if d.replaces not in marked.kept] for made in decisions]
        # Facts and names are read while the graph links are stored: all only follow the commit.
        edges, _, corrected = await asyncio.gather(
            self._after.link(owner, fresh, nearby, decisions, outcome, now),
            self._after.name(owner, outcome, now),
            self._after.read_facts(owner, fresh, outcome, said, _replaced(fresh, decisions, now),
                                   {i: olds for i, olds in kept.items() if olds}),
        )
        marked.corrected.update(corrected)  # a fact read from it replaced another
        self._after.probe(owner, fresh, outcome, said)
        grouped = cut.grouped(
            [
                RememberResult(marked.applied(d.memory), merged, edges.get(d.memory.id, ()))
                for d, merged in outcome
            ]
        )
        if self._linker is not None and any(r.parts for r in grouped):
            await self._linker.store(owner, part_chains(grouped, now))
        return grouped

    async def _drafted(
        self, owner: Owner, checked: Sequence[NewMemory], now: datetime
    ) -> list[Draft]:
        """Each item drafted with its affect, and embedded in one batch (None: the embedder
        is down; the memory is stored and embedded later)."""
        affects = await self._drafting.affects(checked)
        fresh = [
            self._drafting.draft(owner, new, now, affect)
            for new, affect in zip(checked, affects, strict=True)
        ]
        vectors = await self._drafting.vectors.embed([document_text(d.memory) for d in fresh])
        for index, draft in enumerate(fresh):
            draft.embedding = None if vectors is None else vectors[index]
        return fresh

    async def _mark(
        self,
        owner: Owner,
        fresh: Sequence[Draft],
        decisions: Sequence[Sequence[SupersessionDecision]],
        now: datetime,
    ) -> Marked:
        """The memories the new ones replace, marked in the write's unit of work; a new one
        memlane typed becomes a correction."""
        if self._superseding is None:
            return Marked()
        return await self._superseding.mark(
            owner,
            [
                Replacement(d.replaces, draft.memory.id, now)
                for draft, made in zip(fresh, decisions, strict=True)
                for d in made
            ],
            now,
            how={d.replaces: d.kind.value for made in decisions for d in made},
            correcting={draft.memory.id for draft in fresh if draft.retypable},
        )

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
        # A segment is judged by what the user said in it, as a memory of the same words is.
        texts = [
            user_words(d.memory.content, d.memory.metadata.get(ROLES_KEY)) or None
            if d.embedding is not None and not is_transcript(d.memory.metadata)
            else None
            for d in fresh
        ]
        speakers = [speaker_of(d.memory.metadata) for d in fresh]
        # When each was said (an imported message keeps its own time), not when it is stored.
        said = [d.memory.created_at for d in fresh]
        return await self._linker.judge(session, texts, nearby, now, speakers, said)

    async def _probe(self, session: MemoryWriteSession, fresh: Sequence[Draft]) -> list[Nearby]:
        """What lies near each draft, in one query for the batch: the nearest stored memory
        (dedup) and, when the graph is on, the nearest few (links, supersession)."""
        linker = self._linker if self._linker is not None and self._linker.active else None
        probing = [
            i
            for i, d in enumerate(fresh)
            if dedups(d) or (linker is not None and d.embedding is not None)
        ]
        neighbours = 1 if linker is None else linker.probe_neighbours
        found = await session.nearest_many([vector_of(fresh[i]) for i in probing], neighbours)
        nearby = [Nearby(None)] * len(fresh)
        for i, near in zip(probing, found, strict=True):
            nearby[i] = near
        return nearby


def _replaced(
    fresh: Sequence[Draft], decisions: Sequence[Sequence[SupersessionDecision]], now: datetime
) -> dict[UUID, Replaced]:
    """For each new memory, the older ones it replaced in this write and when (their facts
    ended with them; the new memory's facts take their place)."""
    return {
        draft.memory.id: Replaced(tuple(d.replaces for d in made), now)
        for draft, made in zip(fresh, decisions, strict=True) if made
    }
