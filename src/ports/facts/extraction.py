"""FactExtractionPort: the facts a user states about themselves in what they said."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from enum import StrEnum

from memlane.domain.facts import ExtractedFact

# Called with a short reason ("timeout", "invalid", "unreachable") each time an optional
# extractor falls back to the heuristics: the API counts these as a metric.
FallbackListener = Callable[[str], None]


class FactExtractorProvider(StrEnum):
    """The fact extractors, by their `facts.extractor` name; the adapters' registry maps each
    member to its factory."""

    HEURISTIC = "heuristic"  # EN/DE patterns, no model
    OLLAMA = "ollama"  # a local chat model; the heuristics whenever it fails or is too slow


class FactExtractionPort(ABC):
    """Reads facts from texts; never raises for a text it cannot read (it yields nothing)."""

    @abstractmethod
    async def extract(self, texts: Sequence[str]) -> list[list[ExtractedFact]]:
        """For each text, the facts it states, in order."""

    @abstractmethod
    async def close(self) -> None:
        """Release what the extractor holds (a client)."""
