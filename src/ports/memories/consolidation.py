"""ConsolidationPort: removing the memories a consolidation condensed, in one statement."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from uuid import UUID

from memlane.domain.model import Owner


class ConsolidationPort(ABC):
    """Runs inside the owner's transaction when one is open, so the deletion commits with
    the new memory and the audit events that record both."""

    @abstractmethod
    async def delete_sources(
        self, owner: Owner, memory_ids: Sequence[UUID], into: UUID | None = None
    ) -> list[UUID]:
        """Delete the owner's memories among these ids (their edges and index entries go
        with them, as on any delete); the ids deleted. Another owner's ids are untouched.
        With `into`, the facts read from them are kept as facts read from that memory (the
        consolidation, which says what they said) instead of going with them."""
