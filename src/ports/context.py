"""MemoryContextPort: the primary port a host chat service uses to get prompt context."""

from __future__ import annotations

from abc import ABC, abstractmethod

from memlane.domain.model import MemoryContext, PromptContext


class MemoryContextPort(ABC):
    """Relevant memories for a query; implemented in-process and over HTTP."""

    @abstractmethod
    async def retrieve_context(
        self, user_id: str, query: str, limit: int | None = None
    ) -> list[MemoryContext]:
        """The best memories for the query, in type-priority order; records their access."""

    @abstractmethod
    async def prompt_context(
        self, user_id: str, query: str, limit: int | None = None
    ) -> PromptContext:
        """The memories and the rendered prompt block (within the character budget)."""
