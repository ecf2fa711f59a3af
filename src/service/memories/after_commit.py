"""What follows a write's commit: the new memories' links, entities, facts, and the model probe."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import datetime
from uuid import UUID

from memlane.domain.errors import StorageUnavailable
from memlane.domain.graph import Moment, SupersessionDecision
from memlane.domain.memories import Corrected
from memlane.domain.model import Nearby, Owner
from memlane.service.entities import EntityLinker, Named
from memlane.service.facts import FactRecorder, Replaced, Said
from memlane.service.graph import GraphLinker, Written
from memlane.service.memories.drafting import Draft, is_transcript
from memlane.service.memories.gating import gate_fired
from memlane.service.memories.probing import Probed, Prober
from memlane.service.security import Sealer, document_text, speakers_of

log = logging.getLogger(__name__)


class AfterCommit:
    """Derived data of a committed write, read side by side: a failure here is logged and
    never fails the write (a client retrying it would store it twice). Without a linker no
    graph grows; without a namer no entities are read; without facts no facts are read."""

    def __init__(
        self,
        sealer: Sealer,
        linker: GraphLinker | None = None,
        namer: EntityLinker | None = None,
        facts: FactRecorder | None = None,
        prober: Prober | None = None,
    ) -> None:
        self._sealer = sealer
        self._linker = linker
        self._namer = namer
        self._facts = facts
        self._prober = prober

    async def link(
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

    async def name(
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

    async def read_facts(
        self,
        owner: Owner,
        fresh: Sequence[Draft],
        outcome: Sequence[tuple[Draft, bool]],
        said: Sequence[str | None] | None,
        replaced: Mapping[UUID, Replaced] | None = None,
        kept: Mapping[UUID, tuple[UUID, ...]] | None = None,
    ) -> dict[UUID, Corrected]:
        """Facts from what each item said, sourced to the memory it became (or merged into);
        the memories that became corrections by them. `replaced`: by new memory, the older
        ones it replaced in the write (their facts ended with them)."""
        if self._facts is None:
            return {}
        texts = said if said is not None else [
            None if is_transcript(d.memory.metadata) else d.memory.content for d in fresh
        ]
        return await self._facts.read_after_write(owner, [
            Said(target.memory.id, text, draft.memory.created_at, draft.retypable and not merged,
                 (replaced or {}).get(draft.memory.id), (kept or {}).get(draft.memory.id, ()))
            for draft, (target, merged), text in zip(fresh, outcome, texts, strict=True)
            # Every segment, gate or not: a fact read from it can replace an older one, and
            # both write routes must decide alike (docs/levels.md, "The heuristic gate").
            if text
        ])


    def probe(
        self,
        owner: Owner,
        fresh: Sequence[Draft],
        outcome: Sequence[tuple[Draft, bool]],
        said: Sequence[str | None] | None,
    ) -> None:
        """The model probe for each new memory the gate fired on (or that had no gate),
        started in the background once the steps above are stored: the write returns now."""
        if self._prober is None:
            return
        users = said if said is not None else [
            None if is_transcript(d.memory.metadata) else d.memory.content for d in fresh
        ]
        self._prober.schedule(owner, [
            Probed(draft.memory.id, document_text(draft.memory), bool(text),
                   draft.memory.created_at)
            for draft, (_, merged), text in zip(fresh, outcome, users, strict=True)
            # A merge adds nothing new to read; a silent segment runs no heavier step.
            if not merged and gate_fired(draft.memory.metadata)
        ])
