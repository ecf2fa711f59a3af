"""InstallationPort: facts about the stored data as a whole, checked when memlane starts."""

from __future__ import annotations

from abc import ABC, abstractmethod


class InstallationPort(ABC):
    """The key fingerprint the data was sealed with, and the shape of the embedding column."""

    @abstractmethod
    async def key_fingerprint(self, offered: str) -> str:
        """The fingerprint stored with the data, storing `offered` first if there is none
        (race-free first write)."""

    @abstractmethod
    async def check_embedding_dimension(self, model: str, dimension: int) -> None:
        """Raise EmbeddingDimensionMismatch when `model`'s vectors do not fit the column."""

    @abstractmethod
    async def reset_embeddings(self, dimension: int) -> None:
        """Drop every embedding and size the column for `dimension` (`memlane reembed`)."""
