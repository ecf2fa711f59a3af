"""ProbePort: an optional model reads a segment the gate fired on for a graph patch and facts."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from enum import StrEnum

from memlane.domain.facts import GraphPatch


class ExtractionProvider(StrEnum):
    """Who reads a fired segment beyond the patterns, by its `memory.extraction.provider`
    name; the adapters' registry maps each member to its factory (or to none)."""

    HEURISTIC = "heuristic"  # the patterns alone, no model (the default)
    OLLAMA = "ollama"  # a local chat model after the write; on failure the heuristics stand


@dataclass(frozen=True, slots=True)
class ProbeRequest:
    """A fired segment as the model sees it: its text and the names the graph knows."""

    text: str
    known_names: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ProbeAnswer:
    """The model's patch, or (with `fallback`, the reason: timeout, invalid, unreachable,
    refused) the heuristics' result, which the write has already stored: an empty patch."""

    patch: GraphPatch = field(default_factory=GraphPatch)
    fallback: str | None = None


class ProbePort(ABC):
    """Asks a model about one segment; never raises, never takes longer than its timeout."""

    @abstractmethod
    async def probe(self, request: ProbeRequest) -> ProbeAnswer:
        """The patch the model reads in the segment, or the fallback and why."""

    @abstractmethod
    async def close(self) -> None:
        """Release what the probe holds (a client)."""
