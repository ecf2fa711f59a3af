"""FactExtractionPort: the facts a user states about themselves in what they said."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from memlane.domain.facts import ExtractedFact


class FactExtractionPort(ABC):
    """Reads facts from texts; never raises for a text it cannot read (it yields nothing)."""

    @abstractmethod
    async def extract(self, texts: Sequence[str]) -> list[list[ExtractedFact]]:
        """For each text, the facts it states, in order."""

    @abstractmethod
    async def close(self) -> None:
        """Release what the extractor holds (a client)."""
