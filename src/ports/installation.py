"""InstallationPort: facts about the stored data as a whole, checked when memlane starts."""

from __future__ import annotations

from abc import ABC, abstractmethod


class InstallationPort(ABC):
    """The key fingerprint the data was sealed with; the embedding column's shape and the
    model its vectors come from."""

    @abstractmethod
    async def key_fingerprint(self, offered: str) -> str | None:
        """The fingerprint stored with the data, storing `offered` first if there is none and
        no memory exists yet (race-free first write). None: memories exist without a recorded
        fingerprint, which is never overwritten by whatever key is offered now."""

    @abstractmethod
    async def recorded_fingerprint(self) -> str | None:
        """The fingerprint stored with the data, without recording anything."""

    @abstractmethod
    async def replace_fingerprint(self, old: str, new: str) -> bool:
        """Record `new` where `old` is recorded (a finished master-key rotation); whether it
        was (a concurrent change wins)."""

    @abstractmethod
    async def has_memories(self) -> bool:
        """Whether any memory of any owner is stored."""

    @abstractmethod
    async def check_embedding_dimension(self, model: str, dimension: int) -> None:
        """Raise EmbeddingDimensionMismatch when `model`'s vectors do not fit the column."""

    @abstractmethod
    async def check_embedding_model(self, model: str, accepted: frozenset[str]) -> None:
        """Raise EmbeddingModelMismatch when a stored vector comes from a model outside
        `accepted` (the names sharing `model`'s space)."""

    @abstractmethod
    async def embedding_models(self) -> list[str]:
        """The models the stored vectors come from, by name (none: no vector)."""

    @abstractmethod
    async def reset_embeddings(self, dimension: int) -> None:
        """Drop every embedding and size the column for `dimension` (`memlane reembed`)."""
