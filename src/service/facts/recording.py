"""Recording facts: read from what was said at write time, or stated; supersession applied."""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Protocol
from uuid import UUID, uuid4

from memlane.domain.facts import (
    ExtractedFact,
    Fact,
    LedgerChanges,
    Statement,
    StoredFact,
    apply_statements,
    relations_touched,
    superseded_facts,
)
from memlane.domain.graph import Edge, EdgeKind
from memlane.domain.memories import Corrected, Replacement
from memlane.domain.model import Owner
from memlane.domain.policy import GraphTuning
from memlane.ports.clock import Clock
from memlane.ports.facts import FactExtractionPort, FactPort
from memlane.ports.graph import GraphPort
from memlane.service.facts import audit as fact_audit
from memlane.service.facts.sealing import FactSealer
from memlane.service.security import AuditTrail, Change, change_of

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class _Nothing:
    changes: list[Change]
    corrected: dict[UUID, Corrected]
    kept: frozenset[UUID]


_NOTHING_MARKED = _Nothing([], {}, frozenset())


@dataclass(frozen=True, slots=True)
class Replaced:
    """The older memories a new one replaced by what it said, and when they were marked."""

    memories: tuple[UUID, ...]
    at: datetime


@dataclass(frozen=True, slots=True)
class Said:
    """What the user said in a memory just written (the text facts are read from)."""

    memory_id: UUID
    text: str
    said_at: datetime
    # memlane typed the memory (the caller did not): replacing a fact makes it a correction.
    retypable: bool = False
    # The memories it replaced in the same write: their facts ended with them, and the new
    # facts read here become their successors (so a person's delete of one revives them).
    replaced: Replaced | None = None
    # The memories a statement of it replaced but that were kept for their claims: those
    # whose claims none of its facts replaces are replaced whole (the statement is all).
    kept: tuple[UUID, ...] = ()


class Marking(Protocol):
    """What marking replaced memories gave: events, and memories made corrections."""

    @property
    def changes(self) -> list[Change]: ...

    @property
    def corrected(self) -> dict[UUID, Corrected]: ...

    @property
    def kept(self) -> frozenset[UUID]: ...


class ReplacementMarker(Protocol):
    """Marks the memories whose facts were replaced (the memories' use case)."""

    async def mark(
        self, owner: Owner, replacements: Sequence[Replacement], now: datetime, *,
        how: Mapping[UUID, str] | None = None, correcting: Collection[UUID] = (),
        whole: Collection[UUID] = (),
    ) -> Marking: ...


class FactRecorder:
    """Extracts facts from written memories and applies statements to the stored facts."""

    def __init__(
        self,
        facts: FactPort,
        extractor: FactExtractionPort,
        sealer: FactSealer,
        clock: Clock,
        graph: GraphPort | None = None,
        tuning: GraphTuning | None = None,
        trail: AuditTrail | None = None,
        marker: ReplacementMarker | None = None,
    ) -> None:
        self._facts = facts
        self._marker = marker
        self._trail = trail
        self._extractor = extractor
        self._sealer = sealer
        self._clock = clock
        self._graph = graph
        self._tuning = tuning or GraphTuning(enabled=graph is not None)

    async def read(
        self, owner: Owner, said: Sequence[Said]
    ) -> tuple[list[Fact], dict[UUID, Corrected]]:
        """The facts the texts state, stored; what they supersede ended; and the memories
        that became corrections by it. One extraction call for the batch; no database call
        when no text states a fact."""
        said = [s for s in said if s.text.strip()]
        if not said:
            return [], {}
        found = await self._extractor.extract([s.text for s in said])
        statements = [
            Statement(fact, s.memory_id, s.said_at)
            for s, facts in zip(said, found, strict=True) for fact in facts
        ]
        if not statements and not any(s.kept for s in said):
            return [], {}
        correcting = {s.memory_id for s in said if s.retypable}
        replaced = {s.memory_id: s.replaced for s in said if s.replaced is not None}
        kept = {s.memory_id: s.kept for s in said if s.kept}
        changes, corrected = await self._applied(owner, statements, correcting, replaced, kept)
        return changes.new, corrected

    async def read_after_write(
        self, owner: Owner, said: Sequence[Said]
    ) -> dict[UUID, Corrected]:
        """`read`, for memories already committed: a failure is logged, never raised, so it
        cannot turn the write into an error a client would retry (and so store twice)."""
        try:
            return (await self.read(owner, said))[1]
        except Exception as error:  # whatever it was, the committed write stands
            # The type only: a message may quote what was said.
            log.warning("facts of %d new memories not stored: %s", len(said),
                        type(error).__name__)
            return {}

    async def apply(self, owner: Owner, statements: Sequence[Statement]) -> LedgerChanges:
        """Apply statements to the owner's current facts of the relations they touch (one
        read, one transaction), then give replaced memories the graph's supersedes edge and
        their superseded marker."""
        return (await self._applied(owner, statements, ()))[0]

    async def _applied(
        self, owner: Owner, statements: Sequence[Statement], correcting: Collection[UUID],
        replaced: Mapping[UUID, Replaced] | None = None,
        kept: Mapping[UUID, tuple[UUID, ...]] | None = None,
    ) -> tuple[LedgerChanges, dict[UUID, Corrected]]:
        now = self._clock()
        touched = relations_touched([s.fact for s in statements])
        # One unit of work: the facts read, what replaces them, the edges and their events.
        async with change_of(self._trail, owner) as audit:
            stored_as = {self._sealer.relation_token(owner, r) for r in touched}
            current = self._opened(await self._facts.current(owner, now, relations=stored_as))
            changes = apply_statements(current, statements, now=now, new_id=uuid4)
            await self._facts.save(
                owner,
                [self._sealer.seal(owner, f) for f in changes.new],
                [self._sealer.seal(owner, f) for f in changes.ended.values()],
                # Facts read from stored memories can be read again; stated ones cannot.
                derived=all(s.source_memory_id is not None for s in statements),
            )
            audit.add(*await self._succeed(owner, changes.new, replaced or {}))
            audit.add(*fact_audit.recorded(changes.new, list(changes.ended.values())))
            whole = _whole(changes, kept or {}, now)
            marked = await self._mark(owner, changes, now, correcting, whole)
            audit.add(*marked.changes)
            await self._link(owner, changes, now, marked.kept, whole)
        return changes, marked.corrected

    async def _mark(
        self, owner: Owner, changes: LedgerChanges, now: datetime, correcting: Collection[UUID],
        whole: Sequence[Replacement],
    ) -> Marking:
        """The memory a replaced fact was read from is replaced too: by the memory the new
        fact was read from, or (a fact stated directly) by no memory."""
        replacements = [
            Replacement(old.source_memory_id, new.source_memory_id, now)
            for new, old in changes.replacements()
            if old.source_memory_id is not None and new.source_memory_id != old.source_memory_id
        ]
        how = {r.old: "fact" for r in replacements}
        how.update({r.old: "supersedes" for r in whole})
        replacements += whole
        if self._marker is None or not replacements:
            return _NOTHING_MARKED
        return await self._marker.mark(
            owner, replacements, now, how=how, correcting=correcting,
            whole={r.old for r in whole},
        )

    async def _succeed(
        self, owner: Owner, new: Sequence[Fact], replaced: Mapping[UUID, Replaced]
    ) -> list[Change]:
        """The facts that ended with a memory this write's statements replaced get, as their
        successor, the new fact that replaces them (same rule as the ledger's)."""
        heirs = [f for f in new if f.source_memory_id in replaced]
        if not heirs:
            return []
        # Current just before the marking (one write's, one instant): what ended with them.
        before = min(r.at for r in replaced.values()) - timedelta(microseconds=1)
        gone = {m for r in replaced.values() for m in r.memories}
        rows = await self._facts.current(owner, before, sources=gone)
        ended = {r.id: r for r in rows if r.valid_until is not None}
        opened = self._opened(list(ended.values()))
        linked: dict[UUID, tuple[Fact, StoredFact]] = {}
        for heir in heirs:
            gone_for = replaced[heir.source_memory_id].memories  # type: ignore[index]
            mine = [f for f in opened if f.source_memory_id in gone_for]
            for old in superseded_facts(mine, as_said(heir), now=before):
                linked[old.id] = (replace(old, superseded_by=heir.id),
                                  replace(ended[old.id], superseded_by=heir.id))
        if not linked:
            return []
        await self._facts.save(owner, [], [row for _, row in linked.values()])
        return fact_audit.recorded([], [fact for fact, _ in linked.values()])

    def _opened(self, rows: Sequence[StoredFact]) -> list[Fact]:
        return self._sealer.readable_all(rows)

    async def _link(
        self, owner: Owner, changes: LedgerChanges, now: datetime, kept: frozenset[UUID],
        whole: Sequence[Replacement] = (),
    ) -> None:
        """newer memory --supersedes--> older memory, for each fact a new one replaced, but
        for an older memory kept for its claims that still hold."""
        if self._graph is None or not self._tuning.enabled:
            return
        edges = {
            (new.source_memory_id, old.source_memory_id): Edge(
                new.source_memory_id, old.source_memory_id, EdgeKind.SUPERSEDES, 1.0, now, now
            )
            for new, old in changes.replacements()
            if new.source_memory_id is not None and old.source_memory_id is not None
            and new.source_memory_id != old.source_memory_id
            and old.source_memory_id not in kept
        }
        edges.update({
            (r.new, r.old): Edge(r.new, r.old, EdgeKind.SUPERSEDES, 1.0, now, now)
            for r in whole if r.new is not None
        })
        if edges:
            await self._graph.add_edges(
                owner, list(edges.values()), cap_per_node=self._tuning.max_semantic_edges
            )


def as_said(fact: Fact) -> ExtractedFact:
    """A stored fact as the statement that made it (for the supersession rule)."""
    return ExtractedFact(fact.subject, fact.relation, fact.object, fact.fact_type,
                         fact.time_span, fact.confidence)


def _whole(
    changes: LedgerChanges, kept: Mapping[UUID, tuple[UUID, ...]], now: datetime
) -> list[Replacement]:
    """The memories a statement replaced but kept for their claims, where none of the new
    memory's facts replaced one of those claims: the statement names no claim, so all."""
    touched = {(new.source_memory_id, old.source_memory_id)
               for new, old in changes.replacements()}
    return [Replacement(old, new, now) for new, olds in kept.items() for old in olds
            if (new, old) not in touched]
