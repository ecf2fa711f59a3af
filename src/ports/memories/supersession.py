"""SupersessionPort: the durable marker of a memory another one replaced, and what revives it."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Sequence
from uuid import UUID

from memlane.domain.memories import Corrected, Replacement
from memlane.domain.model import Owner


class SupersessionPort(ABC):
    """A memory's `superseded_by` and `valid_until` (DESIGN §9), written only through this
    port and kept when either memory is deleted: storage points a survivor on to the deleted
    memory's own successor, or leaves it pointing at the deleted one. Nothing here revives
    on a delete; `revive` is the service's call. Runs inside the owner's transaction when
    one is open, so the marker commits with the write and the audit events that record it."""

    @abstractmethod
    async def supersede(
        self, owner: Owner, replacements: Sequence[Replacement], *, said: bool = True
    ) -> tuple[list[UUID], list[UUID]]:
        """With `said`, make each `new` memory current (it was just said: a restatement
        merged into a superseded memory brings it back); then mark each `old` memory
        superseded by `new` since `at` (an older marker's time stays; a `new` of None keeps
        the memory it names). The ids marked and the ids made current; another owner's are
        untouched. An import restores markers with `said` off."""

    @abstractmethod
    async def retype(self, owner: Owner, corrections: Sequence[Corrected]) -> int:
        """Make these memories corrections with the heat and importance given; how many."""

    @abstractmethod
    async def revive(
        self, owner: Owner, *, replaced_by: Collection[UUID] = (), ended: Collection[UUID] = ()
    ) -> list[UUID]:
        """Make current again the memories these current memories replaced (`replaced_by`),
        and those of `ended` that no memory replaced (a stated fact did). The ids revived."""

    @abstractmethod
    async def heads(self, owner: Owner, memory_ids: Collection[UUID]) -> dict[UUID, UUID]:
        """For each superseded memory among these, the newest memory along its chain that
        is still stored (its `superseded_by` when no other is)."""
