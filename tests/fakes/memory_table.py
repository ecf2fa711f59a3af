"""FakeMemoryTable: the rows behind the in-memory fakes of the store, search and maintenance."""

from __future__ import annotations

import asyncio
import copy
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime
from uuid import UUID

from memlane.domain.memories.cleanup import CleanupCandidate, CleanupRule, may_clean_up
from memlane.domain.memories.decay import importance_at
from memlane.domain.model import DenseHit, Nearby, Owner, StoredMemory, Vector
from memlane.domain.reach import Reach, TenantReach, covers
from memlane.domain.vectors import cosine
from memlane.ports.storage import MemoryPorts
from tests.fakes.chains import head_past


def position(row: StoredMemory) -> tuple[datetime, UUID]:
    return (row.created_at, row.id)


class FakeMemoryTable:
    """Rows in a dict per owner; writes of one owner are serialised by an asyncio.Lock."""

    def __init__(self, dimension: int | None = None) -> None:
        self.dimension = dimension
        self._rows: defaultdict[Owner, dict[UUID, StoredMemory]] = defaultdict(dict)
        self._locks: defaultdict[Owner, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.erasures: defaultdict[Owner, int] = defaultdict(int)  # store.delete_all calls
        # Whether an imported memory carries a current fact or names an entity (the facts
        # and entities live in their own fakes; FakeWorld links them here).
        self.evidence: Callable[[Owner, UUID], tuple[bool, bool]] = lambda o, i: (False, False)
        # Whether a memory carries a current single-valued or safety fact at a time (FakeFacts
        # answers it for the facts it holds).
        self.key_facts: Callable[[Owner, UUID, datetime], bool] = lambda o, i, t: False
        # Facts of deleted memories kept as facts of another (a consolidation's delete).
        self.moved_sources: dict[Owner, dict[UUID, UUID]] = {}

    def _check(self, stored: StoredMemory, owner: Owner | None = None) -> None:
        if owner is not None and stored.owner != owner:
            raise ValueError("a write session only writes its own owner's memories")
        if not isinstance(stored.content, bytes) or not isinstance(stored.summary, bytes):
            raise TypeError("content and summary must be sealed bytes")
        if stored.embedding is not None:
            self._check_vector(stored.embedding)

    def _check_vector(self, vector: Vector) -> None:
        if self.dimension is not None and len(vector) != self.dimension:
            raise ValueError(f"expected {self.dimension} dimensions, got {len(vector)}")

    @staticmethod
    def _copy(stored: StoredMemory) -> StoredMemory:
        """Detach from the caller's objects, as a database would."""
        return replace(
            stored,
            tags=tuple(stored.tags),
            metadata=copy.deepcopy(dict(stored.metadata)),
            embedding=None if stored.embedding is None else tuple(stored.embedding),
            keywords=tuple(stored.keywords),
        )

    @staticmethod
    def _arrived(new: StoredMemory, old: StoredMemory | None) -> StoredMemory:
        """As the database keeps them: set by the insert, left alone by an update."""
        if old is None:
            return replace(new, arrived_at=new.arrived_at or new.updated_at)
        return replace(new, arrived_at=old.arrived_at, imported=old.imported)

    def _may_clean_up(
        self, row: StoredMemory, rule: CleanupRule, now: datetime, base_rate: float
    ) -> bool:
        carries_fact, names_entity = self.evidence(row.owner, row.id)
        candidate = CleanupCandidate(
            importance_at(row.heat, row.memory_type, now, base_rate), row.pinned,
            row.arrived_at or row.updated_at, row.imported, carries_fact, names_entity,
            self.key_facts(row.owner, row.id, now),
        )
        return may_clean_up(candidate, rule, now)

    def _scope(self, owner: Reach) -> Iterable[dict[UUID, StoredMemory]]:
        if owner is None or isinstance(owner, TenantReach):
            return [rows for key, rows in self._rows.items() if covers(owner, key)]
        return [self._rows.get(owner, {})]

    def _all(self, owner: Reach) -> list[StoredMemory]:
        return [row for rows in self._scope(owner) for row in rows.values()]

    def remove(self, owner: Owner, memory_ids: Iterable[UUID]) -> list[UUID]:
        """Delete rows as the database does (trigger memlane_repoint_superseded_memories): a
        survivor that pointed at a deleted memory points on along the deleted chain."""
        rows = self._rows.get(owner, {})
        gone = {i: rows.pop(i) for i in dict.fromkeys(memory_ids) if i in rows}
        for memory_id, row in list(rows.items()):
            head = head_past(row.superseded_by, gone)
            if head != row.superseded_by:
                rows[memory_id] = replace(row, superseded_by=head)
        return list(gone)

    def _dense(self, owner: Owner, embedding: Vector) -> list[tuple[float, StoredMemory]]:
        """The owner's memories with an embedding, best cosine first (ties by id)."""
        self._check_vector(embedding)
        scored = [(cosine(r.embedding, embedding), r) for r in self._all(owner)
                  if r.embedding is not None]
        return sorted(scored, key=lambda pair: (-pair[0], pair[1].id))

    def _nearby(self, owner: Owner, embedding: Vector, neighbours: int) -> Nearby:
        scored = self._dense(owner, embedding)
        if not scored:
            return Nearby(None)
        near = tuple((row.id, score) for score, row in scored[: max(0, neighbours)])
        return Nearby(DenseHit(self._copy(scored[0][1]), scored[0][0]), near)


def fake_memory_ports(dimension: int | None = None) -> MemoryPorts:
    """The three fakes over one table, as `postgres_memory_ports` gives the real ones."""
    from tests.fakes.candidate_search import FakeCandidateSearch
    from tests.fakes.consolidation import FakeConsolidation
    from tests.fakes.faded import FakeFadedMemories
    from tests.fakes.maintenance import FakeMaintenance
    from tests.fakes.memory_store import FakeMemoryStore
    from tests.fakes.supersession import FakeSupersession
    from tests.fakes.topics import FakeTopics

    table = FakeMemoryTable(dimension)
    return MemoryPorts(
        FakeMemoryStore(table), FakeCandidateSearch(table), FakeMaintenance(table),
        FakeFadedMemories(table), FakeConsolidation(table), FakeTopics(table),
        FakeSupersession(table),
    )
