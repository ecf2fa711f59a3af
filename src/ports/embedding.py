"""EmbeddingPort: text in, unit vectors out."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from enum import StrEnum
from typing import Literal

from memlane.domain.model import Vector

EmbedKind = Literal["query", "document"]


class EmbeddingProvider(StrEnum):
    """The embedding backends, by their `memory.embedding.provider` name. Settings validate
    against this light enum; the adapters' registry maps each member to its factory."""

    ONNX = "onnx"  # all-MiniLM-L6-v2 int8, embedded (DESIGN §4)
    OLLAMA = "ollama"  # a local Ollama server's embedding model


class EmbeddingPort(ABC):
    """Embeds batches of texts. Raises EmbeddingUnavailable when the model cannot answer."""

    @property
    @abstractmethod
    def model(self) -> str:
        """A stable model name stored with each embedding."""

    @property
    @abstractmethod
    def dimension(self) -> int: ...

    @abstractmethod
    async def embed(self, texts: Sequence[str], kind: EmbedKind = "document") -> list[Vector]:
        """One L2-normalised vector per text, in order; never blocks the event loop."""

    async def ready(self) -> bool:
        """Whether the embedder answers now (for readiness probes)."""
        try:
            await self.embed(["ready"], kind="query")
        except Exception:
            return False
        return True

    async def close(self) -> None:  # noqa: B027 - optional hook
        """Release resources (sessions, HTTP clients)."""
