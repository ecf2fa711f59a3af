"""FactPort: an owner's sealed facts (seed 004), apart from the memories they were read from."""

from __future__ import annotations

import builtins
from abc import ABC, abstractmethod
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from memlane.domain.facts import FactFilter, StoredFact
from memlane.domain.model import Cursor, Owner, Page
from memlane.ports.facts.extraction import FactExtractionPort


class FactPort(ABC):
    """Facts per owner. Deleting a memory deletes the facts read from it; deleting a fact
    (either way) leaves the facts it had superseded superseded, pointing on to its own
    successor when it had one. Only `revive` makes them current again: the service's call,
    for a person's explicit delete."""

    @abstractmethod
    async def get(self, owner: Owner, fact_id: UUID) -> StoredFact | None: ...

    @abstractmethod
    async def list(
        self, owner: Owner, filters: FactFilter, cursor: Cursor | None, limit: int, now: datetime
    ) -> Page[StoredFact]:
        """Newest first, keyset-paginated on (created_at, id); `now` decides what is current."""

    @abstractmethod
    async def current(
        self,
        owner: Owner,
        now: datetime,
        *,
        relations: Collection[str] | None = None,
        sources: Collection[UUID] | None = None,
    ) -> builtins.list[StoredFact]:
        """The owner's current facts (not superseded, not ended by `now`), of these relations
        and read from these memories when given, in no particular order."""

    @abstractmethod
    async def save(
        self, owner: Owner, new: Sequence[StoredFact], ended: Sequence[StoredFact],
        *, derived: bool = False,
    ) -> int:
        """Insert `new` and overwrite `ended` (facts now superseded) in one transaction; a new
        fact whose source memory is gone is skipped. Returns how many were inserted.

        `derived`: the facts were read from memories already stored durably, so the store
        may trade their durability in a crash for speed (they can be read again)."""

    @abstractmethod
    async def update(self, stored: StoredFact) -> bool:
        """Overwrite an existing fact; False if it is gone."""

    @abstractmethod
    async def delete(self, owner: Owner, fact_id: UUID) -> bool: ...

    @abstractmethod
    async def revive(
        self, owner: Owner, *, facts: Collection[UUID] = (), sources: Collection[UUID] = (),
        ended_of: Collection[UUID] = (), since: datetime | None = None,
    ) -> builtins.list[StoredFact]:
        """Make current again the facts that these facts, or the facts read from these
        memories, superseded, where those are not superseded themselves (asked before
        they are deleted); and the facts read from the memories `ended_of` that ended with
        no successor at or after `since` (they ended with their memory, which holds again).
        The facts revived, as they are now."""

    @abstractmethod
    async def delete_all(self, owner: Owner) -> int:
        """Erase every fact of the owner, stated ones included; how many there were."""


@dataclass(frozen=True, slots=True)
class FactPorts:
    """What the service keeps facts with: their store and the extractor reading them."""

    store: FactPort
    extractor: FactExtractionPort
