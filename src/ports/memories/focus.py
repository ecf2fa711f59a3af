"""FocusPort: the memories each conversation's contexts handed out (session focus, resume)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

from memlane.domain.model import Owner, Vector
from memlane.domain.retrieval import FocusQuery, FocusView


class FocusPort(ABC):
    """Conversations are given as their stored token (the blind token of the id with
    encryption on); rows hold ids and counts only, and go with their memory."""

    @abstractmethod
    async def touch(
        self, owner: Owner, conversation: str, memory_ids: Sequence[UUID], now: datetime
    ) -> None:
        """Each memory (the owner's; others are ignored) was handed out once more in
        `conversation` at `now`: one upsert for all, which an adapter may defer."""

    async def close(self) -> None:  # noqa: B027 - a no-op unless the adapter defers writes
        """Write what an implementation deferred (queued touches) before storage closes."""

    @abstractmethod
    async def closeness(
        self, owner: Owner, conversation: str, candidates: Sequence[UUID],
        vector: Vector | None, query: FocusQuery,
    ) -> FocusView:
        """In one read: the conversation's focus (its `query.size` most touched memories);
        when it has none, the focus of the owner's most recently touched other conversation
        whose focus holds a memory at cosine >= `query.resume_similarity` to `vector`
        (among its `query.recent` latest; resumed); and each candidate's hops from the
        focus over the owner's edges, at most `query.hops` (absent: further)."""
