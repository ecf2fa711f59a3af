"""Restoring exported memories under their own ids, with their histories, exactly as they were."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any
from uuid import uuid4

from memlane.domain.errors import StorageUnavailable
from memlane.domain.memories import (
    NAMES_KEY,
    Replacement,
    classify,
    estimate_importance,
    importance_at,
    summarize,
)
from memlane.domain.model import Memory, Owner
from memlane.domain.policy import MemoryPolicy
from memlane.domain.portability import (
    PortableEvent,
    Restored,
    exported_id,
    record_heat,
    record_marker,
    record_to_history,
    record_to_new_memory,
)
from memlane.domain.security import SubjectKind
from memlane.ports.clock import Clock
from memlane.ports.memories import MemoryStorePort
from memlane.service.entities import EntityLinker, Named
from memlane.service.facts import FactRecorder, Said
from memlane.service.memories import (
    DocumentVectors,
    Superseding,
    audit as memory_audit,
    check_new,
)
from memlane.service.portability.history import reimported
from memlane.service.security import (
    AuditTrail,
    Sealer,
    change_of,
    document_text,
    is_turn,
    speakers_of,
)

log = logging.getLogger(__name__)

# A memory's history holds its own events and those of the edges it is the source of.
MEMORY_HISTORY = (SubjectKind.MEMORY, SubjectKind.EDGE)


@dataclass(frozen=True, slots=True)
class PortableMemory:
    """A memory read from an export record, under its exported id, and its history (None:
    the record has none, an export older than the trail's travelling)."""

    memory: Memory
    history: tuple[PortableEvent, ...] | None


class MemoryPorting:
    """No merge, no supersession judged, no facts or names read again: what was derived
    travels in the export too (edges, entities, facts), so a restore is the export itself.

    `trail` is where the histories go; `facts` and `names` read records that carry no
    history (older exports) as a write would."""

    def __init__(
        self,
        store: MemoryStorePort,
        vectors: DocumentVectors,
        sealer: Sealer,
        policy: MemoryPolicy,
        clock: Clock,
        trail: AuditTrail | None = None,
        facts: FactRecorder | None = None,
        names: EntityLinker | None = None,
        superseding: Superseding | None = None,
    ) -> None:
        self._superseding = superseding
        self._store = store
        self._vectors = vectors
        self._sealer = sealer
        self._policy = policy
        self._clock = clock
        self._trail = trail
        self._facts = facts
        self._names = names

    def read(self, owner: Owner, record: Mapping[str, Any], now: datetime) -> PortableMemory:
        """The memory a record holds, checked as any write; InvalidMemory when malformed."""
        new = check_new(record_to_new_memory(record), self._policy)
        content = new.content.strip()
        memory_type = new.memory_type or classify(content, self._policy.cues)
        raw_base = record.get("base_importance")
        base = float(raw_base) if isinstance(raw_base, int | float) else new.importance
        if base is None:
            base = estimate_importance(content, "", self._policy.cues)
        created = new.created_at or now
        heat, updated = record_heat(record, base, created)
        superseded_by, valid_until = record_marker(record)
        memory_id = exported_id(record) or uuid4()
        memory = Memory(
            id=memory_id, owner=owner, memory_type=memory_type, content=content,
            summary=summarize(content),
            importance=importance_at(heat, memory_type, now, self._policy.base_rate),
            heat=heat, created_at=created, updated_at=updated,
            conversation_id=new.conversation_id, tags=new.tags,
            metadata=dict(new.metadata), pinned=new.pinned,
            superseded_by=superseded_by, valid_until=valid_until,
        )
        return PortableMemory(memory, record_to_history(record, memory_id, MEMORY_HISTORY))

    async def restore(self, owner: Owner, items: Sequence[PortableMemory]) -> Restored:
        """Store the memories whose ids the owner does not hold, with their histories, in one
        unit of work; the others are skipped (a re-import, or a rerun after a failure)."""
        unique = list({p.memory.id: p for p in reversed(items)}.values())[::-1]
        held = {s.id for s in await self._store.get_many(
            owner, [p.memory.id for p in unique], indexed=False)}
        fresh = [p for p in unique if p.memory.id not in held]
        vectors = None
        if fresh:
            vectors = await self._vectors.embed([document_text(p.memory) for p in fresh])
        now = self._clock()
        async with change_of(self._trail, owner) as changes, \
                self._store.write_session(owner) as session:
            # Read again under the owner's lock: a write in between may have stored one.
            again = {s.id for s in await session.read_many([p.memory.id for p in fresh])}
            sealed, stored = [], []
            for index, item in enumerate(fresh):
                if item.memory.id in again:
                    continue
                vector = None if vectors is None else vectors[index]
                memory = replace(item.memory, embedding_model=None if vector is None
                                 else self._vectors.model)
                sealed.append(self._sealer.seal(memory, vector, now))
                stored.append(item)
                changes.add(*(
                    [memory_audit.created(memory)] if item.history is None
                    else reimported(memory.id, item.history, now)
                ))
            await session.insert_many(sealed)
            if self._superseding is not None:
                await self._superseding.restore(owner, [
                    Replacement(p.memory.id, p.memory.superseded_by, p.memory.valid_until)
                    for p in stored if p.memory.valid_until is not None
                ])
        await self._derive(owner, [p.memory for p in stored if p.history is None], now)
        return Restored(len(stored), len(items) - len(stored))

    async def _derive(self, owner: Owner, memories: Sequence[Memory], now: datetime) -> None:
        """A record without history comes from an export that carried no facts or names
        either (or was written by hand): read them from it, as a write would, after the
        commit (a failure there is logged by the readers, never undoes the restore)."""
        if not memories:
            return
        said = [m for m in memories if not is_turn(m.metadata) and not m.metadata.get(NAMES_KEY)]
        if self._facts is not None and said:
            await self._facts.read_after_write(
                owner, [Said(m.id, m.content, m.created_at) for m in said])
        if self._names is not None:
            try:
                await self._names.link(owner, [
                    Named(m.id, document_text(m), speakers_of(m.metadata)) for m in memories],
                    now)
            except StorageUnavailable as error:
                # As on a write: the memories are committed; a rerun skips them.
                log.warning("entities of %d restored memories not stored: %s",
                            len(memories), error)
