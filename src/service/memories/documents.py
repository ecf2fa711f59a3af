"""Documents embedded for storage, tolerating an embedder outage: the write goes on."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from memlane.domain.errors import EmbeddingUnavailable
from memlane.domain.model import Vector
from memlane.ports.embedding import EmbeddingPort

log = logging.getLogger(__name__)


class DocumentVectors:
    """The embedder as the write paths use it: a batch of documents at a time, or None when
    the embedder is down (the memories are stored without and backfilled later)."""

    def __init__(self, embedder: EmbeddingPort) -> None:
        self._embedder = embedder

    @property
    def model(self) -> str:
        """The name stored beside each vector this embedder made."""
        return self._embedder.model

    async def embed(self, texts: Sequence[str]) -> list[Vector] | None:
        try:
            return await self._embedder.embed(list(texts), kind="document")
        except EmbeddingUnavailable as error:
            # The write must not be lost: store without embedding, backfill later.
            log.warning(
                "embedder unavailable, storing %d memories without embedding: %s", len(texts), error
            )
            return None
