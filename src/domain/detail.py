"""Values of a memory's levels of detail and metadata: tiers, provenance, affect, domain."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from memlane.domain.errors import InvalidMemory


class Tier(StrEnum):
    """How much of a memory to show: abstract, overview or the full text."""

    L0 = "L0"
    L1 = "L1"
    L2 = "L2"


@dataclass(frozen=True, slots=True)
class Tiers:
    """A memory's abstract (L0) and overview (L1); its content is L2."""

    abstract: str
    overview: str

    def text(self, tier: Tier, content: str) -> str:
        if tier is Tier.L0:
            return self.abstract
        return self.overview if tier is Tier.L1 else content


class Provenance(StrEnum):
    """How a memory came to be."""

    STATED = "stated"  # the user said it to remember it (POST /v1/memories)
    EXTRACTED = "extracted"  # read from a conversation (segments, learn)
    REPLIED = "replied"  # the assistant's words alone: a conversation segment without the user's
    INFERRED = "inferred"  # derived by a model from patterns (an LLM probe)
    CONSOLIDATED = "consolidated"  # made by consolidation from several memories


class MemoryDomain(StrEnum):
    """The territory a memory belongs to (RMG's four subgraphs)."""

    RELATIONSHIP = "relationship"
    PROJECT = "project"
    TECHNICAL = "technical"
    PERSONAL = "personal"


@dataclass(frozen=True, slots=True)
class Affect:
    """The emotional charge of a text: valence in [-1, 1], arousal in [0, 1]."""

    valence: float
    arousal: float

    def __post_init__(self) -> None:
        if not (-1.0 <= self.valence <= 1.0 and 0.0 <= self.arousal <= 1.0):
            raise InvalidMemory(f"affect out of range: {self.valence}, {self.arousal}")


@dataclass(frozen=True, slots=True)
class Traits:
    """What is stored beside a memory's text: provenance, confidence in [0, 1], affect
    (None: not read, e.g. a memory stored before it was), domain. `cluster`: a summary
    node consolidation made for a group of memories."""

    provenance: Provenance = Provenance.STATED
    confidence: float = 1.0
    affect: Affect | None = None
    domain: MemoryDomain = MemoryDomain.PERSONAL
    cluster: bool = False

    def __post_init__(self) -> None:
        if not 0.0 <= self.confidence <= 1.0:
            raise InvalidMemory(f"confidence must be within [0, 1], got {self.confidence}")
