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

    @property
    def same_space_models(self) -> frozenset[str]:
        """The model names whose stored vectors share this model's space, its own
        included: the same model served by another provider. Vectors of any other model
        cannot be compared with this one's."""
        return frozenset({self.model})

    @property
    def window_tokens(self) -> int | None:
        """How many tokens of one text the model reads (its prefix and special tokens
        included); the rest of a longer text is cut. None: the backend does not say."""
        return None

    async def count_tokens(
        self, texts: Sequence[str], kind: EmbedKind = "document"
    ) -> list[int] | None:
        """How many tokens each text makes as embed() feeds it, before the cut (more than
        window_tokens: cut). None: the backend cannot count them."""
        return None

    @property
    def texts_cut(self) -> int | None:
        """How many texts embed() has cut to the window since this embedder started (the
        model never saw their tail; docs/embeddings.md, "Long text"). None: the backend
        cannot say."""
        return None

    async def ready(self) -> bool:
        """Whether the embedder answers now (for readiness probes)."""
        try:
            await self.embed(["ready"], kind="query")
        except Exception:
            return False
        return True

    async def close(self) -> None:  # noqa: B027 - optional hook
        """Release resources (sessions, HTTP clients)."""
